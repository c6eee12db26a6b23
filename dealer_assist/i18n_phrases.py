"""The program's sentences in Russian: :data:`PHRASES`, the one table :func:`dealer_assist.i18n.say` uses.

The program's modules write their sentences in English (errors, what the showdown
waits for, why a note cannot be read, why a hand needs review); :func:`~dealer_assist.i18n.say`
gives them in the language asked for. Each entry is (the English sentence as a regular
expression, its Russian); a group named ``say*`` is itself a sentence (said in turn; ``saybare*``
without the dash a reason may start with, "— не JSON", where it follows a colon),
``place*`` a place on the table ("board 2", "the board", "alice 1", "a and b"); other
groups are copied (serials, seats, numbers).
"""

from __future__ import annotations

__all__ = ["PHRASES"]

#: A photo's file name at the start of a list item (calibrate camera's unusable photos): only a name ending as an
#: image does, so no other sentence with a bracket is taken for one.
_PHOTO = r"(?P<n>[^;()]+?\.(?i:jpe?g|png|bmp|tiff?|webp))"

PHRASES: tuple[tuple[str, str], ...] = (
    # every command's one-sentence errors (cli/options.py: error_text) and the commonest of them
    (r"Error: (?P<say>.+)", "Ошибка: {say}"),
    # (first: the sentence after it is the rules' own, which patterns below take whole)
    (r"The rules refuse the hand as it stands: (?P<say>.+)", "Правила не принимают раздачу в таком виде: {say}"),
    (r"There is no hand log at (?P<p>.+) yet \(hands are logged when they finish\)\.",
     "Журнала раздач {p} ещё нет (раздачи записываются в него, когда заканчиваются)."),
    (r"The log (?P<p>.+) holds (?P<n>\d+) hand\(s\); there is no hand (?P<k>\d+)\.",
     "В журнале {p} раздач: {n}; раздачи {k} в нём нет."),
    # (before the sentence above: these end in it too)
    (r"No photo gave a usable note: (?P<say>.+)", "Ни один снимок не дал пригодной купюры: {say}"),
    (r"(?P<p>.+): no such file\.", "{p}: такого файла нет."),
    # eval's and odds' warnings (app/typed_hands.py: duplicate_warnings, cli/odds_cmd.py, cli/eval_cmd.py)
    (r"warning: (?P<say>.+)", "предупреждение: {say}"),
    # the serial model cannot be used (vision/recognizer.py: _load, app/readers.py: serial_model_warning)
    (r"(?P<say>the serial recognizer's model .+\.) Until then the reader does without it \(every serial is still "
     r"cross-checked by the other engines; fewer notes may be trusted\)\.",
     "{say} Пока этого не сделано, распознавание идёт без неё (каждый номер по-прежнему сверяется другими "
     "движками; надёжно прочитанных купюр может быть меньше)."),
    (r"the serial recognizer's model (?P<p>.+?) (?P<saywhy>(?:is|has) .+): restore the model and its card with "
     r"(?P<c>`[^`]+`) \(or retrain: (?P<t>`[^`]+`), see models/README\.md\)\.",
     "модель распознавания номеров {p} {saywhy}: восстановите её и карточку командой {c} (или обучите заново: "
     "{t}, см. models/README.md)."),
    (r"is missing", "отсутствует"),
    (r"is empty", "пуста"),
    (r"is damaged \(no ONNX model onnxruntime can load\)", "повреждена (её не удаётся загрузить как модель ONNX)"),
    (r"is another model \(its input is not (?P<i>.+) or its output not (?P<o>.+)\)",
     "— другая модель (её вход не {i} или выход не {o})"),
    (r"has no card \((?P<c>.+), which holds its measured temperature\)",
     "без карточки ({c}, в ней измеренная температура)"),
    (r"has a card that cannot be used \((?P<sayx>.+)\)", "с непригодной карточкой ({sayx})"),
    (r"has a card \((?P<c>.+)\) whose temperature is not a number from (?P<numlo>\S+) to (?P<numhi>\S+) \((?P<v>.*)\)",
     "с карточкой {c}, где температура — не число от {numlo} до {numhi} ({v})"),
    (r"line (?P<n>\d+): (?P<say>.+)", "строка {n}: {say}"),
    (r"serial (?P<v>\d+) appears (?P<times>twice|\d+ times): in (?P<list>.+); one note cannot lie in two places\.",
     "номер {v} встречается {times}: в {list}; одна купюра не может лежать в двух местах."),
    (r"serial (?P<v>\d+) appears in (?P<list>.+); one note cannot lie in two places \(it is taken out of the deck "
     r"once\)\.", "номер {v} встречается в {list}; одна купюра не может лежать в двух местах (из колоды он "
                  "вынимается один раз)."),
    # eval --reject-duplicates, a hand line's players (rules/formats.py, rules/showdown.py) and odds' unknown notes
    (r"serial (?P<v>\d+) appears in (?P<list>.+); one note cannot lie in two places\.",
     "номер {v} встречается в {list}; одна купюра не может лежать в двух местах."),
    (r"(?P<f>players\[\d+\]\.name) (?P<n>'.*') is used by another player\.", "{f} {n} уже занято другим игроком."),
    (r"(?P<f>players\[\d+\]\.pocket\[\d+\]) is not known; the odds need both pocket notes of every player still "
     r"in \((?P<n>'.*') has neither folded nor declined to reveal\)\.",
     "{f} неизвестна; для шансов нужны обе карманные купюры каждого игрока, оставшегося в игре ({n} не сбросил "
     "карты и не отказался вскрываться)."),
    (r"(?P<f>players\[\d+\]\.pocket\[\d+\]) is not known; the odds need the note of every player still "
     r"in \((?P<n>'.*') has neither folded nor declined to reveal\)\.",
     "{f} неизвестна; для шансов нужна купюра каждого игрока, оставшегося в игре ({n} не сбросил карту и не "
     "отказался вскрываться)."),
    (r"and (?P<n>\d+) more serial\(s\) seen in two places of one hand \(--reject-duplicates refuses such hands\)\.",
     "и ещё {n} {n~номер встречается|номера встречаются|номеров встречаются} в двух местах одной раздачи "
     "(--reject-duplicates отказывает таким раздачам)."),
    (r"the board: (?P<f>\d+) of (?P<w>\d+) notes found \(a note whose serial prints are hidden is not seen; Indian "
     r"poker has no board\)\.", "борд: найдено купюр {f} из {w} (купюру со скрытыми номерами не видно; в индийском "
                                 "покере борда нет)."),
    # calibrate check: a seat with fewer notes than a player is dealt (cli/calibration_report.py: short_seats)
    (r"(?P<s>.+?): (?P<f>\d+) of (?P<w>\d+) notes found \(a note whose serial prints are hidden is not seen; in "
     r"Indian poker a seat holds (?P<i>\d+)\)\.", "{s}: найдено купюр {f} из {w} (купюру со скрытыми номерами не "
                                                  "видно; в индийском покере у места {i})."),
    # score's and calibrate's commonest refusals (app/hand_folders.py, calibration/store.py)
    (r"(?P<o>--json|--csv) (?P<f>.+) lies in the hand folder (?P<h>.+) and would overwrite the hand's file "
     r"(?P<n>.+); write it outside the hand folders \(e\.g\. (?P<e>.+)\)\.",
     "{o} {f} лежит в папке раздачи {h} и затёр бы её файл {n}; запишите его вне папок раздач (например, {e})."),
    (r"(?P<o>--json|--csv) (?P<f>.+) lies in the hand folder (?P<h>.+) and would become a file of that hand, which "
     r"the next score counts as no photo of it; write it outside the hand folders \(e\.g\. (?P<e>.+)\)\.",
     "{o} {f} лежит в папке раздачи {h} и стал бы файлом этой раздачи, который следующая оценка сочтёт лишним; "
     "запишите его вне папок раздач (например, {e})."),
    (r"(?P<o>--json|--csv) (?P<f>.+) would overwrite (?P<t>.+), which score reads; write it elsewhere\.",
     "{o} {f} затёр бы {t}, который читается при оценке; запишите его в другое место."),
    (r"(?P<p>.+): holds photos \((?P<f>.+)\) but neither hand\.json nor a board photo, so it is no hand folder; "
     r"name the board's photo board\.jpg \(or board-1\.jpg \.\.\.\), or, for whole-table photos, give "
     r"--calibration NAME\.",
     "{p}: в папке есть снимки ({f}), но нет ни hand.json, ни снимка борда, так что это не папка раздачи; назовите "
     "снимок борда board.jpg (или board-1.jpg ...) или, для снимков всего стола, укажите --calibration NAME."),
    # Indian poker's refusals (rules/showdown.py, app/hand_folders.py, app/table_photos.py, live/table_state.py)
    (r"board has (?P<n>\d+) notes?; Indian poker has no board notes\.",
     "на борде купюр: {n}; в индийском покере борда нет."),
    (r"(?P<k>.+?)(?:\.|: )contributed must be from (?P<a>\d+) to (?P<b>\d+) in Indian poker \(the ante and at most "
     r"(?P<m>\d+) more, RULES\.md §7\.3\), got (?P<v>.+)\.",
     "{k}: в индийском покере вносят от {a} до {b} фишек (анте и не больше {m} сверх него, RULES.md §7.3), а не {v}."),
    (r"(?P<k>.+?)(?:\.|: )contributed is missing; in Indian poker every player posts the ante, so give every "
     r"player's chips or none\.",
     "{k}: фишки не указаны; в индийском покере анте ставит каждый, так что укажите фишки всех игроков или никого."),
    (r"(?P<k>.+?)(?:\.|: )contributed is (?P<a>\d+) but another player put in (?P<b>\d+); a player still in has "
     r"matched the bet \(RULES\.md §7\.3\)\.",
     "{k}: внесено {a}, а другой игрок внёс {b}; игрок, оставшийся в раздаче, уравнял ставку (RULES.md §7.3)."),
    (r"(?P<img>.+?): Indian poker has no board notes; remove the photo from the hand folder\.",
     "{img}: в индийском покере борда нет; уберите этот снимок из папки раздачи."),
    (r"(?P<img>.+?): a note \((?P<v>\d+)\) lies in the board zone; Indian poker has no board notes\.",
     "{img}: купюра ({v}) лежит в зоне борда, а в индийском покере борда нет."),
    (r"(?P<img>.+?): a note with no trusted serial lies in the board zone; Indian poker has no board notes\.",
     "{img}: купюра без надёжного номера лежит в зоне борда, а в индийском покере борда нет."),
    (r"Indian poker has no board notes; give a seat and its note, e\.g\. (?P<q>'.*')\.",
     "В индийском покере борда нет; укажите место и его купюру, например {q}."),
    # a file given as the hand log that is none (live/history.py, cli/serve_cmd.py)
    (r"(?P<p>.+) is not a hand log \(its first line is not a dealer-assist hand record\); (?P<saytail>.+)",
     "{p} — не журнал раздач (его первая строка — не запись раздачи этой программы); {saytail}"),
    (r"hands are not appended to it\. Give another --log file\.",
     "раздачи в него не дописываются. Укажите другой файл --log."),
    (r"give the log live writes \(--log FILE\)\.", "укажите журнал, который пишет 'live' (--log FILE)."),
    (r"give the log live writes with --log\.", "укажите журнал, который 'live' пишет с --log."),
    # calibrate list, use and pattern (cli/calibrate_profiles_cmd.py, cli/calibrate_camera_cmd.py)
    (r"no profiles in (?P<p>.+)", "в {p} нет профилей"),
    (r"  \(samples usable by name: (?P<l>.+)\)", "  (образцы, доступные по имени: {l})"),
    (r"(?P<m>[* ]) (?P<n>.+?)  \(unusable: (?P<sayw>.+)\)", "{m} {n}  (непригоден: {sayw})"),
    # a profile's load error after its name (app/profiles.py: _reason): "it" for the file
    (r"it (?P<saybarer>(?:does not|is|cannot|holds|gives) .+), so it is no calibration profile",
     "{saybarer}, так что это не профиль калибровки"),
    (r"it points to (?P<q>'.*'), which does not exist", "указывает на {q}, которого нет"),
    (r"\* (?P<n>.+)  \(a sample\)", "* {n}  (образец)"),
    (r"(?P<p>.+) now points to (?P<n>.+)", "{p} теперь указывает на {n}"),
    (r"wrote (?P<p>.+): (?P<a>\d+) x (?P<b>\d+) squares, (?P<c>\d+x\d+) inner corners\.(?P<sayrest>.*)",
     "записан {p}: {a} x {b} клеток, внутренних углов {c}.{sayrest}"),
    (r" Printed at 100 % scale \((?P<d>\d+) dpi\): squares of (?P<num>[\d.]+) mm, the board (?P<w>\d+) x "
     r"(?P<h>\d+) mm with its margin; measure a printed square for --square-mm\.",
     " При печати в масштабе 100 % ({d} dpi) клетка — {num} мм, доска с полями — {w} x {h} мм; измерьте "
     "напечатанную клетку для --square-mm."),
    (r" This file type has no print size: measure a printed square for --square-mm\.",
     " У файла этого типа нет размера для печати: измерьте напечатанную клетку для --square-mm."),
    (r"Cannot write (?P<p>.+): the folder (?P<f>.+) does not exist\.", "Нельзя записать {p}: папки {f} нет."),
    (r"--output must end in \.png or another image type \((?P<l>.+)\), not (?P<q>'.*')\.",
     "--output должен кончаться на .png или другой тип изображения ({l}), а не {q}."),
    # club init and sync (cli/club_cmd.py)
    (r"The club database at (?P<w>.+) cannot be reached \((?P<x>.*)\)\.", "База данных клуба {w} недоступна ({x})."),
    (r"The club database at (?P<w>.+) is ready \(schema version (?P<v>\d+); applied (?P<n>.+)\)\.",
     "База данных клуба {w} готова (версия схемы {v}; применены {n})."),
    (r"The club database at (?P<w>.+) was up to date already \(schema version (?P<v>\d+)\)\.",
     "База данных клуба {w} уже была в актуальном состоянии (версия схемы {v})."),
    (r"(?P<l>.+): (?P<r>\d+) hand\(s\) of table (?P<t>.+?); (?P<n>\d+) newly stored in the club at (?P<w>.+), "
     r"(?P<a>\d+) there already\.", "{l}: раздач стола {t}: {r}; впервые сохранено в клубе {w}: {n}, уже было: {a}."),
    (r"(?P<l>.+): these hands were played at table (?P<o>\S+), not (?P<t>\S+) \(the club has (?P<n>\d+) of them "
     r"from (?P<o2>\S+) already\): give --table (?P<o3>\S+); nothing was stored\.",
     "{l}: эти раздачи сыграны за столом {o}, а не {t} (в клубе уже есть {n} из них от стола {o2}): укажите "
     "--table {o3}; ничего не сохранено."),
    (r"the club has it already as table (?P<o>\S+)'s, so it is not stored again as (?P<t>\S+)'s",
     "в клубе она уже есть как раздача стола {o}, поэтому как раздача стола {t} она ещё раз не сохраняется"),
    (r"(?P<l>.+): these hands were played at tables (?P<o>.+), not (?P<t>\S+) \(the club has (?P<n>\d+) of them "
     r"from those tables already\); nothing was stored\.",
     "{l}: эти раздачи сыграны за столами {o}, а не {t} (в клубе уже есть {n} из них от этих столов); ничего не "
     "сохранено."),
    (r"and (?P<n>\d+) more line\(s\) the club cannot take; skipped\.",
     "и ещё строк, которые клуб не может принять: {n}; пропущены."),
    # score's notes under the summary (app/hand_folders.py: _hands_in, said by cli/score_cmd.py)
    (r"Note: (?P<say>.+)", "Примечание: {say}"),
    (r"(?P<p>.+) holds (?P<n>\d+) loose photo\(s\) beside its (?P<k>\d+) hand folder\(s\), and they are not "
     r"scored: (?P<f>.+); move each into its hand's folder\.",
     "{p}: снимков вне папок раздач — {n} (папок раздач: {k}), они не оцениваются: {f}; переложите каждый в папку "
     "его раздачи."),
    (r"(?P<p>.+) holds photos but neither hand\.json nor a board photo, so it is not scored as a hand "
     r"\(whole-table photos: give that folder itself with --calibration NAME\)\.",
     "{p}: в папке есть снимки, но нет ни hand.json, ни снимка борда, так что она не оценивается как раздача "
     "(снимки всего стола: укажите саму эту папку с --calibration NAME)."),
    (r"(?P<p>.+): a photo given on its own is read as a whole-table photo, which needs --calibration NAME \(the "
     r"profile whose zones split it into board and seats\)(?P<sayhint>; to score the hand it belongs to, give its "
     r"folder .+)?\.",
     "{p}: отдельный снимок читается как снимок всего стола, а для него нужен --calibration NAME (профиль, зоны "
     "которого делят его на борд и места){sayhint}."),
    (r"; to score the hand it belongs to, give its folder (?P<f>.+)",
     "; чтобы оценить раздачу, к которой он относится, укажите её папку {f}"),
    # score's result files refused before any photo is read (app/result_files.py) and an empty image (vision/images.py)
    (r"cannot write (?P<p>.+): it is a folder\.", "нельзя записать {p}: это папка."),
    (r"cannot write (?P<p>.+): it is not writable\.", "нельзя записать {p}: запись в него запрещена."),
    (r"cannot write (?P<p>.+): the folder (?P<f>.+) does not exist\.", "нельзя записать {p}: папки {f} нет."),
    (r"cannot write (?P<p>.+): the folder (?P<f>.+) does not take new files \((?P<sayx>.+)\)\.",
     "нельзя записать {p}: папка {f} не принимает новые файлы ({sayx})."),
    (r"--json and --csv both name (?P<p>.+); give two different files\.",
     "--json и --csv называют один и тот же файл {p}; укажите два разных файла."),
    (r"(?P<p>.+): the file is empty\.", "{p}: файл пуст."),
    (r"No calibration profile was given and no default is set; pass --calibration NAME \((?P<l>`dealer-assist "
     r"calibrate list`) names the profiles and samples\), or make one with (?P<c>`dealer-assist calibrate table`)\.",
     "Профиль калибровки не указан, а профиля по умолчанию нет; укажите --calibration NAME (профили и образцы "
     "называет {l}) или создайте профиль командой {c}."),
    (r"No calibration profile named (?P<q>'.*') \((?P<p>.+) does not exist\); make one with (?P<c>`dealer-assist "
     r"calibrate table`)\.", "Профиля калибровки {q} нет ({p} не существует); создайте его командой {c}."),
    (r"(?P<n>\d+) hand line\(s\) could not be evaluated\.", "Не удалось оценить строк с раздачами: {n}."),
    (r"no hands in standard input\.", "на стандартном вводе нет ни одной раздачи."),
    (r"no hands in (?P<p>.+)\.", "в {p} нет ни одной раздачи."),
    # eval's and odds' bad lines, the commonest (app/typed_hands.py: line_json; rules/formats.py, notes.py)
    (r"the line is not valid JSON \((?P<sayx>.*)\)\.", "строка — не JSON ({sayx})."),
    # json's own words for what is wrong, with the column (fileio.py: parse_json)
    (r"(?P<sayj>Expecting .+?|Extra data|Unterminated string starting at|Invalid .+?): column (?P<c>\d+)",
     "{sayj}: столбец {c}"),
    (r"Expecting value", "ожидалось значение"),
    (r"Extra data", "лишние данные после значения"),
    (r"Expecting property name enclosed in double quotes", "ожидалось имя поля в двойных кавычках"),
    (r"Expecting (?P<d>'.') delimiter", "ожидался разделитель {d}"),
    (r"Unterminated string starting at", "незакрытая строка, начало"),
    (r"Invalid control character at", "недопустимый управляющий символ"),
    (r"the line is not UTF-8 text\.", "строка — не текст UTF-8."),
    (r"the line is nested too deeply \(more than (?P<n>\d+) levels of \[ and \{\)\.",
     "в строке слишком глубокая вложенность (больше {n} уровней [ и {{)."),
    (r"the line is longer than (?P<n>\d+) MiB, the most a hand may take\.",
     "строка длиннее {n} МиБ — больше, чем может занимать раздача."),
    (r"(?P<k>[\w.\[\]]+) is missing\.", "нет поля {k}."),
    (r"a hand must be a JSON object, got (?P<kind>.+)\.", "раздача должна быть объектом JSON, а не {kind}."),
    (r"(?P<k>[\w.\[\]]+) must be a list of serials, got (?P<kind>.+)\.",
     "{k} должен быть списком номеров, а не {kind}."),
    (r"(?P<k>players) must be a list of players, got (?P<kind>.+)\.", "{k} должен быть списком игроков, а не {kind}."),
    (r"(?P<k>[\w.\[\]]+) must be a string of 7 digits, got (?P<q>.+)\.",
     "{k} должен быть строкой из 7 цифр, а не {q}."),
    (r"(?P<k>[\w.\[\]]+) must be exactly 7 digits, got (?P<q>.+)\.", "{k} должен состоять ровно из 7 цифр, а не {q}."),
    (r"(?P<k>[\w.\[\]]+) must be an integer from 1 to 7, got (?P<q>.+)\.",
     "{k} должно быть целым числом от 1 до 7, а не {q}."),
    (r"(?P<k>[\w.\[\]]+) must be from 1 to 7, got (?P<q>.+)\.", "{k} должно быть от 1 до 7, а не {q}."),
    (r"must be from 1 to 7, got (?P<q>.+)\.", "должно быть от 1 до 7, а не {q}."),
    (r"board has (?P<n>\d+) notes; at most 3 are allowed\.", "на борде купюр: {n}; допускается не больше 3."),
    (r"(?P<k>.+?(?:\.|: )pocket) has (?P<n>\d+) note\(s\); exactly (?P<m>\d+) (?:are|is) needed in Indian "
     r"poker\.", "{k}: купюр {n}, а в индийском покере нужно ровно {m}."),
    (r"(?P<k>.+?(?:\.|: )pocket) has (?P<n>\d+) note\(s\); exactly (?P<m>\d+) (?:are|is) needed\.",
     "{k}: купюр {n}, а нужно ровно {m}."),
    (r"--images (?P<q>'.*') matches no file\.", "--images {q}: ни одного такого файла нет."),
    # eval's quick form (app/typed_hands.py: _seats, _known, quick_hand, flag_of)
    (r"(?P<n>.+?): pocket note (?P<i>\d+) (?P<say>must .+)", "{n}: карманная купюра {i} {say}"),
    (r"board note (?P<i>\d+) (?P<say>must .+)", "купюра борда {i} {say}"),
    (r"must be exactly 7 digits, got (?P<q>.+)\.", "должна состоять ровно из 7 цифр, а не {q}."),
    (r"must be a string of 7 digits, got (?P<q>.+)\.", "должна быть строкой из 7 цифр, а не {q}."),
    (r"(?P<q>'.*') must look like NAME=CHIPS with a whole number of chips, e\.g\. (?P<e>\S+)\.",
     "{q} должно иметь вид NAME=CHIPS с целым числом фишек, например {e}."),
    (r"(?P<q>'.*') must look like NAME=SERIAL,SERIAL, e\.g\. (?P<e>\S+)\.",
     "{q} должно иметь вид NAME=SERIAL,SERIAL, например {e}."),
    (r"(?P<q>'.*') must look like NAME=SERIAL \(Indian poker: one note each\), e\.g\. (?P<e>\S+)\.",
     "{q} должно иметь вид NAME=SERIAL (в индийском покере по одной купюре), например {e}."),
    (r"dealer (?P<q>'.*') is not one of the players\.", "дилер {q} — не из игроков."),
    (r"(?P<n>.+?): name (?P<q>'.*') is used by another player\.", "{n}: имя {q} уже занято другим игроком."),
    (r"(?P<q>'.*') is not one of the players \(none given\)\.", "{q} — не из игроков (игроки не указаны)."),
    (r"(?P<q>'.*') is not one of the players \((?P<l>.+)\)\.", "{q} — не из игроков ({l})."),
    (r"the chips of (?P<q>'.*') are given twice \((?P<a>.+) and (?P<b>.+)\); give each player's chips once\.",
     "фишки {q} указаны дважды ({a} и {b}); укажите фишки каждого игрока один раз."),
    (r"the playing position P \(1-7\) is needed\.", "нужно игровое место P (1-7)."),
    (r"players has (?P<n>\d+) player\(s\); at least 2 are needed\.", "игроков: {n}; нужно не меньше 2."),
    # option values refused (cli/options.py: choice, parse_since, whole_chips) and click's own usage errors
    (r"must be an ISO date or date-time such as (?P<a>\S+) or (?P<b>\S+), not (?P<q>.+)\.",
     "должно быть датой или датой и временем ISO, например {a} или {b}, а не {q}."),
    (r"must be a time in the years (?P<a>\d+) to (?P<b>\d+), not (?P<q>.+)\.",
     "должно быть временем в годах от {a} до {b}, а не {q}."),
    (r"must be a whole number of chips from 0 up, not (?P<q>.+)\.", "должно быть целым числом фишек от 0, а не {q}."),
    (r"must be a number of seconds from 0 up, not (?P<q>.+)\.", "должно быть числом секунд от 0, а не {q}."),
    (r"must be K/N with 1 <= K <= N <= 20 \(e\.g\. 2/3\), not (?P<q>.+)\.",
     "должно быть K/N, где 1 <= K <= N <= 20 (например, 2/3), а не {q}."),
    # after the sentences above that also begin "must be" (the first pattern that matches is used)
    (r"must be (?P<list>.+?), not (?P<q>'.*'|\S+)\.", "должно быть {list}, а не {q}."),
    (r"(?P<v>\S+) is not in the range (?P<r>\S+)\.", "{v} — вне диапазона {r}."),
    (r"(?P<v>'.*') is not a valid integer\.", "{v} — не целое число."),
    (r"(?P<v>'.*') is not a valid float\.", "{v} — не число."),
    (r"Option (?P<o>'.+') requires an argument\.", "Параметру {o} нужно значение."),
    (r"Option (?P<o>'.+') requires (?P<n>\d+) arguments\.", "Параметру {o} нужно значений: {n}."),
    (r"Got unexpected extra argument(?:s|\(s\))? \((?P<a>.*)\)", "Лишние аргументы: ({a})"),
    # typer's range and type refusals (typer 0.2x words them like pydantic)
    (r"Input should be less than or equal to (?P<num>-?[\d.]+)", "значение должно быть не больше {num}"),
    (r"Input should be greater than or equal to (?P<num>-?[\d.]+)", "значение должно быть не меньше {num}"),
    (r"Input should be a valid integer, unable to parse string as an integer",
     "нужно целое число"),
    (r"Input should be a valid number, unable to parse string as a number", "нужно число"),
    (r"No such command (?P<c>'.*')\.", "Нет такой команды: {c}."),
    (r"Missing command\.", "Не указана команда."),
    (r"cannot read (?P<p>'.*'): it does not exist\.", "нельзя прочитать {p}: такого файла нет."),
    (r"(?P<n>\d+) player\(s\) given; a hand needs at least 2 \(repeat --player\)\.",
     "игроков указано: {n}; раздаче нужно не меньше 2 (повторите --player)."),
    (r"(?P<p>.+): no such file or folder\.", "{p}: такого файла или папки нет."),
    (r"Interrupted: no hand was scored and no file was written \(files of an earlier run are kept\)\.",
     "Прервано: ни одна раздача не оценена, ни один файл не записан (файлы прошлого запуска не тронуты)."),
    (r"cannot read (?P<p>'.*'): it is a folder, not a file\.", "нельзя прочитать {p}: это папка, а не файл."),
    (r"The hand log (?P<p>.+) is a folder, not a file\.", "Журнал раздач {p} — папка, а не файл."),
    (r"The hand log (?P<p>.+) is a folder; give (?:the|a) file \(e\.g\. (?P<e>.+)\)\.",
     "Журнал раздач {p} — папка; укажите файл (например, {e})."),
    (r"The state file (?P<p>.+) is a folder; give a file\.", "Файл состояния {p} — папка; укажите файл."),
    (r"There is no camera, video or image at (?P<p>'.*')\.", "Камеры, видео или изображения {p} нет."),
    # serve's refusals of --host, --port and --delay (spectator/server.py: bind, cli/serve_cmd.py)
    (r"--host (?P<h>.+) is not an address of this machine; give 127\.0\.0\.1, 0\.0\.0\.0 or one of this machine's "
     r"addresses\.", "--host {h} — не адрес этого компьютера; укажите 127.0.0.1, 0.0.0.0 или один из его адресов."),
    (r"--host (?P<h>.+) is not an address of this machine \((?P<x>.*)\); give e\.g\. 127\.0\.0\.1, 0\.0\.0\.0 or "
     r"this machine's LAN address\.", "--host {h} — не адрес этого компьютера ({x}); укажите, например, 127.0.0.1, "
                                       "0.0.0.0 или его адрес в локальной сети."),
    (r"--host (?P<h>.+) is not an address or a host name; give e\.g\. 127\.0\.0\.1 or 0\.0\.0\.0\.",
     "--host {h} — не адрес и не имя компьютера; укажите, например, 127.0.0.1 или 0.0.0.0."),
    (r"Port (?P<p>\d+) on (?P<h>.+) is in use \(another (?P<c>dealer-assist serve)\?\); give another --port, or "
     r"--port 0 for any free one\.", "Порт {p} на {h} занят (другим {c}?); укажите другой --port или --port 0 — "
                                      "любой свободный."),
    (r"Port (?P<p>\d+) needs administrator rights; give a port from 1024 up \(e\.g\. (?P<e>--port \d+)\)\.",
     "Порту {p} нужны права администратора; укажите порт от 1024 (например, {e})."),
    (r"--port must be a number from 0 to 65535 \(0: any free port\), not (?P<q>.+)\.",
     "--port должен быть числом от 0 до 65535 (0 — любой свободный), а не {q}."),
    (r"--club and --log name two sources; give one of them\.", "--club и --log — два источника; укажите один."),
    (r"--table, --since, --until and --serial search a club; give --club URL too\.",
     "--table, --since, --until и --serial ищут в клубе; укажите и --club URL."),
    (r"--table chooses a table of the club; give --club URL too\.",
     "--table выбирает стол клуба; укажите и --club URL."),
    (r"cannot create --debug-dir (?P<p>.+?): (?P<sayx>.+)\.", "нельзя создать --debug-dir {p}: {sayx}."),
    (r"it is a file, not a folder", "это файл, а не папка"),
    (r"cannot write into --debug-dir (?P<p>.+): (?P<x>.+)\.", "нельзя писать в --debug-dir {p}: {x}."),
    (r"--no-log and --log FILE contradict each other; give one of them\.",
     "--no-log и --log FILE противоречат друг другу; укажите что-то одно."),
    (r"(?P<p>.+): holds no hand folder \(no images found in it or its sub-folders\)\.",
     "{p}: в ней нет папки раздачи (ни в ней, ни во вложенных папках не найдено снимков)."),
    (r"(?P<p>.+): is a file but not a photo; give hand folders \(or whole-table photos with --calibration NAME\)\.",
     "{p}: это файл, а не снимок; укажите папки раздач (или снимки всего стола с --calibration NAME)."),
    (r"(?P<p>.+): is a folder, not an image\.", "{p}: это папка, а не изображение."),
    (r"(?P<p>.+): not an image that can be decoded \(corrupt or unsupported format\)\.",
     "{p}: это не изображение, которое можно прочитать (файл повреждён или формат не поддерживается)."),
    # live: the croupier's commands (live/session.py, live/commands.py)
    (r"Hand (?P<n>\d+): dealer (?P<d>.+?) \(hand (?P<k>\d+) logged\)\.",
     "Раздача {n}: дилер {d} (раздача {k} записана в журнал)."),
    (r"Hand (?P<n>\d+): dealer (?P<d>\S+?)\. (?P<say>.+)", "Раздача {n}: дилер {d}. {say}"),
    (r"Hand (?P<n>\d+): dealer (?P<d>\S+?)\.", "Раздача {n}: дилер {d}."),
    (r"Playing position P=(?P<p>\d+)\.", "Игровое место P={p}."),
    (r"Random playing position: P=(?P<p>\d+)\.", "Случайное игровое место: P={p}."),
    (r"P CHANGED AFTER THE DEAL: P=(?P<p>\d+), was P=(?P<old>\d+); every note's rank is read at P=(?P=p) now\.",
     "P ИЗМЕНЕНО ПОСЛЕ РАЗДАЧИ: P={p}, было P={old}; ранг каждой купюры теперь по P={p}."),
    (r"P CHANGED AFTER THE DEAL: random P=(?P<p>\d+), was P=(?P<old>\d+); every note's rank is read at P=(?P=p) "
     r"now\.",
     "P ИЗМЕНЕНО ПОСЛЕ РАЗДАЧИ: случайное P={p}, было P={old}; ранг каждой купюры теперь по P={p}."),
    (r"(?P<s>\S+) already sits this hand out; 'in (?P<t>\S+)' puts the seat back in\.",
     "{s} уже пропускает эту раздачу; 'in {t}' возвращает место в игру."),
    (r"Showdown called\.", "Вскрытие объявлено."),
    (r"The showdown is already called; u takes the call back\.",
     "Вскрытие уже объявлено; u отменяет объявление."),
    (r"(?P<s>\S+) has already folded; 'in (?P<t>\S+)' takes the fold back\.",
     "{s} уже сбросил; 'in {t}' отменяет сброс."),
    (r"(?P<s>\S+) folded\.", "{s}: сброс."),
    (r"(?P<s>\S+) is back in\.", "{s} снова в игре."),
    (r"(?P<s>\S+) is in the hand\.", "{s} в раздаче."),
    (r"(?P<s>\S+) sits this hand out\.", "{s} пропускает эту раздачу."),
    (r"At most (?P<m>[0-9,]+) chips a seat in one hand, not (?P<n>\d+…?)\.",
     "Не больше {m} фишек одного места в раздаче, а не {n}."),
    (r"(?P<s>\S+) put in (?P<n>\d+) chips?\.", "{s} внёс фишек: {n}."),
    (r"(?P<s>\S+): (?P<n>\d+) chips? in this hand in all \(was (?P<m>\d+)\)\.",
     "{s}: всего фишек в этой раздаче: {n} (было {m})."),
    (r"(?P<place>.+?): serial (?P<v>\d+) typed\.", "{place}: номер {v} введён."),
    (r"(?P<place>.+?): typed serial cleared\.", "{place}: введённый номер стёрт."),
    (r"Nothing to undo in this hand\.", "В этой раздаче нечего отменять."),
    (r"Undone\.", "Отменено."),
    (r"Quitting\.", "Выход."),
    # live: what became of the hand in play at the end (live/session.py: close)
    (r"Hand (?P<n>\d+) is logged \((?P<say>.+)\)\.", "Раздача {n} записана в журнал ({say})."),
    (r"Hand (?P<n>\d+) was not decided: logged as abandoned \((?P<say>.+)\)\.",
     "Раздача {n} не решена: записана в журнал как брошенная ({say})."),
    (r"Hand (?P<n>\d+) is decided; it is not logged \(no hand log\)\.",
     "Раздача {n} решена; в журнал не записана (журнала нет)."),
    (r"Hand (?P<n>\d+) was not decided; it is not logged \(no hand log\)\.",
     "Раздача {n} не решена; в журнал не записана (журнала нет)."),
    (r"Its last hand was played with --tie-policy (?P<a>split|rollover); this run plays --tie-policy "
     r"(?P<b>split|rollover) \(give --tie-policy (?P=a) to keep the session's rule\)\. (?P<say>.+)",
     "Её последняя раздача сыграна с --tie-policy {a}; этот запуск играет с --tie-policy {b} (дайте --tie-policy "
     "{a}, чтобы оставить правило сессии). {say}"),
    (r"Its last hand was played with --tie-policy (?P<a>split|rollover); this run plays --tie-policy "
     r"(?P<b>split|rollover) \(give --tie-policy (?P=a) to keep the session's rule\)\.",
     "Её последняя раздача сыграна с --tie-policy {a}; этот запуск играет с --tie-policy {b} (дайте --tie-policy "
     "{a}, чтобы оставить правило сессии)."),
    (r"(?P<n>\d+) chips? carried over from earlier hands joins? this hand's main pot\.",
     "Перенесённые из прошлых раздач фишки ({n}) входят в основной банк этой раздачи."),
    (r"Session (?P<s>\S+) goes on \(hand (?P<k>\d+) finished (?P<m>\d+) min ago\); --new-session starts a new "
     r"one\. (?P<say>.+)", "Сессия {s} продолжается (раздача {k} закончилась {m} мин назад); --new-session начинает "
                          "новую. {say}"),
    (r"Session (?P<s>\S+) goes on \(hand (?P<k>\d+) finished (?P<m>\d+) min ago\); --new-session starts a new "
     r"one\.", "Сессия {s} продолжается (раздача {k} закончилась {m} мин назад); --new-session начинает новую."),
    (r"quit", "выход"), (r"stopped", "остановлено"), (r"end of video", "конец записи"),
    (r"max frames", "достигнут --max-frames"),
    (r"OCR: (?P<say>.+)", "OCR: {say}"),
    (r"the OCR process stopped \((?P<x>.*)\); it was restarted\.", "процесс OCR остановился ({x}); он перезапущен."),
    (r"(?P<q>'.*') is not a seat \((?P<seats>.*)\)\.", "{q} — не место за столом ({seats})."),
    (r"(?P<q>'.*') is not a note: give the board or a seat and the note's number, e\.g\. 'board 2' or '(?P<s>.*) 1'\.",
     "{q} — не купюра: укажите борд или место и номер купюры, например 'board 2' или '{s} 1'."),
    (r"(?P<q>'.*') is neither the board nor a seat \((?P<seats>.*)\)\.", "{q} — ни борд, ни место ({seats})."),
    (r"(?P<s>\S+) holds one note in Indian poker \((?P<t>\S+) 1\), not (?P<i>\d+)\.",
     "у {s} в индийском покере одна купюра ({t} 1), а не {i}."),
    (r"(?P<place>the board|.+?) has notes 1 to (?P<n>\d), not (?P<i>\d+)\.",
     "{place}: купюры с номерами от 1 до {n}, а не {i}."),
    (r"the serial must be exactly 7 digits, got (?P<q>.*)\.", "номер должен быть ровно из 7 цифр, а не {q}."),
    (r"chips must be a whole number >= 0, not (?P<q>.*)\.", "фишки — целое число от 0, а не {q}."),
    (r"Empty command\.", "Пустая команда."),
    (r"(?P<q>'.*') is neither a command nor a serial: give the note and its 7 digits, e\.g\. 'board 2 1234567' or "
     r"'P3 1 7654321'\.",
     "{q} — ни команда, ни номер: укажите купюру и её 7 цифр, например 'board 2 1234567' или 'P3 1 7654321'."),
    (r"(?P<q>'.*') is not a command \((?P<names>.*)\)\.", "{q} — не команда ({names})."),
    (r"'(?P<c>\w+)' takes nothing after it\.", "После '{c}' ничего не пишут."),
    # (the examples as typed: the stdin form 'chips P3 25', or in the key's box, opened with the word, 'P3 25')
    (r"Give the playing position as one number from 1 to 7, e\.g\. (?P<e>'(?:position )?5')\.",
     "Укажите игровое место одним числом от 1 до 7, например {e}."),
    (r"Give the seat to fold, e\.g\. (?P<a>'(?:fold )?P3') or (?P<b>'(?:fold )?3')\.",
     "Укажите место, которое сбрасывает, например {a} или {b}."),
    (r"Give the seat, e\.g\. '(?P<c>\w+) P3' or '\w+ 3'\.", "Укажите место, например '{c} P3' или '{c} 3'."),
    (r"Give the seat and a whole number of chips, e\.g\. (?P<e>'(?:chips )?P3 25')\.",
     "Укажите место и целое число фишек, например {e}."),
    (r"Give the note and its 7 digits, e\.g\. (?P<a>'(?:serial )?board 2 1234567') or (?P<b>'(?:serial )?P3 1 "
     r"7654321')\.", "Укажите купюру и её 7 цифр, например {a} или {b}."),
    # live: what the showdown waits for, and problems (live/table_state.py)
    (r"The board has (?P<k>\d) of (?P<n>\d) notes known\.", "Борд: известно купюр {k} из {n}."),
    (r"(?P<place>.+?): the camera is still reading this note\.", "{place}: камера ещё читает эту купюру."),
    (r"(?P<s>.+?): (?P<k>\d) of (?P<n>\d) pocket notes known\.", "{s}: известно карманных купюр {k} из {n}."),
    (r"(?P<s>.+?): (?P<k>\d) of (?P<n>\d) pocket notes known \(none on the table now: the camera saw this seat's "
     r"notes earlier; type them, fold the seat or call the showdown\)\.",
     "{s}: известно карманных купюр {k} из {n} (сейчас на столе их нет, камера видела их раньше; введите номера, "
     "сбросьте место или объявите вскрытие)."),
    (r"(?P<s>.+?): (?P<k>\d) of (?P<n>\d) pocket notes known \(the croupier put this seat in the hand; type them, "
     r"fold the seat or call the showdown\)\.",
     "{s}: известно карманных купюр {k} из {n} (крупье ввёл это место в раздачу; введите номера, сбросьте место "
     "или объявите вскрытие)."),
    (r"Fewer than 2 seats have notes: waiting for the deal\.", "Купюры есть меньше чем у 2 мест: ждём раздачу."),
    (r"The board holds (?P<n>\d+) notes; only the first (?P<k>\d) play\.",
     "На борде купюр: {n}; играют только первые {k}."),
    (r"(?P<s>.+?) has (?P<n>\d+) notes in front of them; only the first (?P<k>\d) play\.",
     "У {s} купюр: {n}; играют только первые {k}."),
    (r"The serial (?P<v>\d+) is in (?P<places>.+): one note cannot lie in two places\.",
     "Номер {v} лежит в местах {places}: одна купюра не может лежать в двух местах."),
    (r"(?P<n>\d+) notes? lie outside the board and every seat's zone and do not play; if they are dealt notes, "
     r"check the zones \(dealer-assist calibrate check\)\.",
     "Купюр вне борда и зон мест: {n}; они не играют. Если это розданные купюры, проверьте зоны "
     "(dealer-assist calibrate check)."),
    # live: the camera and the reader (live/frame_source.py, live/session.py)
    (r"end of the recording", "конец записи"),
    (r"camera (?P<n>\d+)", "камера {n}"),
    (r"reconnected", "переподключена"),
    (r"no frame for (?P<n>\d+) s", "нет кадров {n} с"),
    (r"(?P<say>.+); retrying in (?P<n>[\d.]+) s", "{say}; новая попытка через {n} с"),
    (r"the camera stopped delivering frames \((?P<say>.*)\)", "камера перестала давать кадры ({say})"),
    (r"no frame", "кадра нет"),
    (r"read failed", "чтение не удалось"),
    (r"Serial digits are too small to read in (?P<n>\d+) zone\(s\) \(px/mm: (?P<place_num_z>[^)]*)\); (?P<say>.+)",
     "Цифры номера слишком мелкие для чтения в зонах: {n} (пикс./мм: {place_num_z}); {say}"),
    (r"digits ~(?P<num_n>[\d.]+) px, the reader needs (?P<num_m>[\d.]+) px \((?P<num_x>[\d.]+) px/mm\): the camera looks at it at a "
     r"slant \(the table's depth is squashed\): put the camera more overhead, or higher above the far side\.",
     "цифры ~{num_n} пикс., для распознавания нужно {num_m} пикс. ({num_x} пикс./мм): камера смотрит под углом "
     "(глубина стола сжата): поставьте камеру выше над столом или прямо над дальней стороной."),
    (r"digits ~(?P<num_n>[\d.]+) px, the reader needs (?P<num_m>[\d.]+) px \((?P<num_x>[\d.]+) px/mm\): it needs (?P<num_f>[\d.]+)x "
     r"the pixels per mm: use a higher camera resolution, bring the camera closer or zoom in, "
     r"or use a smaller mat\.",
     "цифры ~{num_n} пикс., для распознавания нужно {num_m} пикс. ({num_x} пикс./мм): нужно в {num_f} раза больше "
     "пикселей на мм: увеличьте разрешение камеры, приблизьте камеру или увеличьте зум, или возьмите стол меньше."),
    (r"digits too small \((?P<num_n>[\d.]+) px; the reader needs (?P<num_m>[\d.]+)\)",
     "цифры слишком мелкие ({num_n} пикс.; для распознавания нужно {num_m})"),
    # why a note has no serial (the reader and the tracker: vision/, live/tracker.py)
    (r"the note was not found in this frame", "купюра не найдена в этом кадре"),
    (r"no serial seen: face down, or covered", "номер не виден: купюра рубашкой вверх или закрыта"),
    (r"a 9-digit serial \((?P<d>\d+), 2017 series\) is out of format for the game",
     "9-значный номер ({d}, образец 2017 г.) не подходит для игры"),
    (r"two prints agree but do not lie where a 1997-series ruble note puts them",
     "два номера совпадают, но лежат не там, где на купюре образца 1997 г."),
    (r"the reads disagree \((?P<v>.*)\)", "прочтения расходятся ({v})"),
    (r"the print is small and no second engine confirms (?P<v>\d+)",
     "номер мелкий, и второй движок не подтверждает {v}"),
    (r"only one print shows the serial \((?P<v>\d+)\); check it by eye",
     "номер виден только в одном месте ({v}); проверьте на глаз"),
    (r"both prints read a serial of (?P<n>\d+) digits \((?P<d>\d+)\); only 7 digits play",
     "оба номера читаются как {n}-значные ({d}); играют только 7 цифр"),
    (r"only part of its serial is visible \((?P<d>.*)\): the note is cut by the photo's edge",
     "виден только часть номера ({d}): купюра обрезана краем снимка"),
    (r"only part of its serial is visible \((?P<d>.*)\): the note is partly covered",
     "видна только часть номера ({d}): купюра частично закрыта"),
    (r"the two prints read differently \((?P<v>.*)\)", "два номера купюры читаются по-разному ({v})"),
    (r"no line of it reads as a serial print \(two letters, then 7 digits\)",
     "ни одна строка не читается как номер (две буквы, затем 7 цифр)"),
    (r"its serial reads as digits both ways up and the letters do not tell which",
     "номер читается цифрами в обе стороны, а буквы не подсказывают, как правильно"),
    (r"no print of this note was read as 7 digits", "ни один номер этой купюры не прочитан как 7 цифр"),
    (r"only one read \((?P<v>\d+)\) and nothing to cross-check it with",
     "только одно прочтение ({v}), и сверить его не с чем"),
    # score: why a hand needs review (app/verdicts.py, app/hand_folders.py, app/table_photos.py, app/photos.py)
    (r"(?P<img>.+?): (?P<place>note \d+|the note) is unreadable: (?P<say>.+)\.", "{img}: {place} не читается: {say}."),
    (r"(?P<img>.+?): (?P<place>note \d+|the note) is out of format: (?P<say>.+)\.",
     "{img}: {place} не того формата: {say}."),
    (r"(?P<img>.+?): (?P<place>note \d+|the note) is blank: (?P<say>.+)\.", "{img}: {place} без номера: {say}."),
    (r"(?P<img>.+?): (?P<e>\d+) notes? expected, (?P<f>\d+) found \(a note whose serial prints are hidden is not "
     r"seen\)\.", "{img}: ожидается купюр: {e}, найдено: {f} (купюру со скрытыми номерами не видно)."),
    (r"(?P<img>.+?): (?P<e>\d+) notes? expected, (?P<f>\d+) found\.", "{img}: ожидается купюр: {e}, найдено: {f}."),
    (r"(?P<img>.+?): hand\.json gives (?P<g>\d+) serial\(s\), (?P<e>\d+) expected\.",
     "{img}: в hand.json номеров: {g}, ожидается {e}."),
    (r"hand\.json: the serial (?P<v>\S+) given for (?P<img>.+) is a number; write each serial in quotes "
     r"\((?P<q>\"\S+\")\): a number cannot keep a leading zero\.",
     "hand.json: номер {v} для {img} записан числом; пишите каждый номер в кавычках ({q}): у числа не бывает "
     "ведущего нуля."),
    (r"hand\.json: the serial (?P<q>'.*') given for (?P<img>.+) is not exactly 7 digits\.",
     "hand.json: номер {q} для {img} — не ровно 7 цифр."),
    (r"hand\.json: 'serials' must map an image name to a list of serials\.",
     "hand.json: 'serials' должен сопоставлять имени снимка список номеров."),
    (r"hand\.json: 'serials' names (?P<k>.+), which is not a photo in this hand\.",
     "hand.json: 'serials' называет {k}, но такого снимка в этой раздаче нет."),
    (r"serial (?P<v>\d+) is read in (?P<places>.+): one note cannot lie in two places\.",
     "номер {v} прочитан в {places}: одна купюра не может лежать в двух местах."),
    (r"no playing position: put \"position\" in (?P<f>.+?) or pass --position\.",
     "нет игрового места: укажите \"position\" в {f} или --position."),
    (r"no board photo \(board\.jpg or board-1\.jpg \.\.\.\)\.", "нет снимка борда (board.jpg или board-1.jpg ...)."),
    (r"(?P<place>the board|player \S+) \((?P<photos>.*)\) has (?P<c>\d+) notes?, (?P<w>\d) expected\.",
     "{place} ({photos}): купюр {c}, ожидается {w}."),
    (r"(?P<img>.+?): not read", "{img}: не прочитан"),
    (r"(?P<img>.+?): the reader failed on this photo \((?P<x>.*)\)\.", "{img}: снимок прочитать не удалось ({x})."),
    (r"hand\.json is not valid JSON \(line (?P<l>\d+), column (?P<c>\d+): (?P<x>.*)\)\.",
     "hand.json — не JSON (строка {l}, столбец {c}: {x})."),
    (r"hand\.json cannot be used: (?P<x>.*)\.", "hand.json нельзя использовать: {x}."),
    (r"(?P<q>'.*'): the name begins or ends with a space, so it names no player; rename the file\.",
     "{q}: имя начинается или кончается пробелом и не называет игрока; переименуйте файл."),
    (r"(?P<img>.+?): a hidden file is not read; rename it \(a photo\) or remove it from the hand folder\.",
     "{img}: скрытый файл не читается; переименуйте его (если это снимок) или уберите из папки раздачи."),
    (r"(?P<img>.+?): not a readable photo \(a broken link or a folder\)\.",
     "{img}: это не снимок, который можно прочитать (битая ссылка или папка)."),
    (r"(?P<img>.+?)/: a sub-folder is not read; put its photos in the hand folder itself \(or score it as a hand of "
     r"its own\)\.", "{img}/: вложенная папка не читается; положите её снимки в саму папку раздачи (или оцените её "
                     "как отдельную раздачу)."),
    (r"(?P<img>.+?): not a photo this program reads \((?P<x>.*?); it reads (?P<kinds>.*)\); convert it or remove it "
     r"from the hand folder\.", "{img}: программа не читает такие файлы ({x}; она читает {kinds}); преобразуйте его "
                               "или уберите из папки раздачи."),
    (r"(?P<img>.+?): the name does not map to a player \(a player's photo is NAME or NAME-N, the name of letters, "
     r"digits, _ and -\); rename the file\.",
     "{img}: имя не называет игрока (снимок игрока — ИМЯ или ИМЯ-N, имя из букв, цифр, _ и -); переименуйте файл."),
    (r"(?P<img>.+?) cannot be used \((?P<x>.*)\)\.", "{img} нельзя использовать ({x})."),
    (r"(?P<img>.+?): \"seats\" must be a list of seat names\.", "{img}: \"seats\" должен быть списком мест."),
    (r"(?P<img>.+?): seat\(s\) (?P<seats>.+) are not in the calibration (?P<p>'.*') \(its seats: (?P<all>.*)\)\.",
     "{img}: мест {seats} нет в калибровке {p} (её места: {all})."),
    (r"(?P<img>.+?): a note \((?P<v>\d+)\) at \((?P<x>[\d-]+), (?P<y>[\d-]+)\) px lies in no zone of the calibration "
     r"(?P<p>'.*')\.", "{img}: купюра ({v}) в точке ({x}, {y}) пикс. не лежит ни в одной зоне калибровки {p}."),
    (r"(?P<img>.+?): a note with no trusted serial at \((?P<x>[\d-]+), (?P<y>[\d-]+)\) px lies in no zone of the "
     r"calibration (?P<p>'.*')\.",
     "{img}: купюра без надёжного номера в точке ({x}, {y}) пикс. не лежит ни в одной зоне калибровки {p}."),
    (r"(?P<img>.+?): a note \((?P<v>\d+)\) lies in seat (?P<s>.+), which is not in play\.",
     "{img}: купюра ({v}) лежит на месте {s}, которое не в игре."),
    (r"(?P<img>.+?): a note with no trusted serial lies in seat (?P<s>.+), which is not in play\.",
     "{img}: купюра без надёжного номера лежит на месте {s}, которое не в игре."),
    # ---- the refusals test_sentence_table.py found untranslated (the fifth new-user trial's class of finding) ----
    # the operating system's words for why a file cannot be used (exc.strerror, any case)
    (r"(?i:permission denied)", "доступ запрещён"),
    (r"(?i:no such file or directory)", "нет такого файла или папки"),
    (r"(?i:read-only file system)", "файловая система только для чтения"),
    (r"(?i:no space left on device)", "на устройстве нет места"),
    (r"(?i:is a directory)", "это папка"),
    (r"(?i:not a directory)", "не папка"),
    (r"(?i:file name too long)", "слишком длинное имя файла"),
    (r"(?i:disk quota exceeded)", "превышена дисковая квота"),
    (r"(?i:input/output error)", "ошибка ввода-вывода"),
    (r"(?i:too many levels of symbolic links)", "слишком много уровней символических ссылок"),
    (r"(?i:operation not permitted)", "операция не разрешена"),
    (r"(?i:file exists)", "файл уже существует"),
    (r"(?i:broken pipe)", "канал закрыт"),
    (r"(?i:device or resource busy)", "устройство или ресурс заняты"),
    (r"(?i:file too large)", "файл слишком велик"),
    (r"(?i:address already in use)", "адрес уже используется"),
    (r"(?i:cannot assign requested address)", "нельзя назначить запрошенный адрес"),
    # calibrate camera (app/camera_setup.py, calibration/intrinsics.py, calibration/interactive.py)
    (r"(?P<p>.+?): photograph the chessboard and give --images GLOB instead\.",
     "{p}: сфотографируйте шахматную доску и укажите --images GLOB."),
    (r"Capture cancelled; nothing was written\.", "Съёмка отменена; ничего не записано."),
    (r"Give either --images GLOB \(photos of the chessboard\) or --camera N \(live\)\.",
     "Укажите либо --images GLOB (снимки шахматной доски), либо --camera N (съёмка вживую)."),
    (r"Only (?P<a>\d+) of (?P<b>\d+) photo\(s\) can be used \(at least (?P<c>\d+) are needed\); unusable: "
     r"(?P<sayf>.+)\.", "Пригодны только {a} из {b} снимков (нужно не меньше {c}); непригодны: {sayf}."),
    # ... each unusable photo with its reason, "alice-1.jpg (no whole 9x6 chessboard found); …" (app/camera_setup.py)
    (_PHOTO + r" \((?P<sayw>no whole \d+x\d+ chessboard found|\d+x\d+ px, the others are \d+x\d+)\)"
     r"(?P<sayrest>(?:; .+)?)", "{n} ({sayw}){sayrest}"),
    (_PHOTO + r" \((?P<sayw>no such file|is a folder, not an image|cannot be read \([^;]+\)|the file is empty|"
     r"the image is too large to decode[^;]*|not an image that can be decoded \(corrupt or unsupported format\)|"
     r"the image is too small \(\d+x\d+ px\) to hold a legible serial|is not a regular file \([^;]+\), so it is not "
     r"read)\)(?P<sayrest>(?:; .+)?)", "{n} ({sayw}){sayrest}"),
    (r"no such file", "нет такого файла"),
    (r"is a folder, not an image", "это папка, а не изображение"),
    (r"the file is empty", "файл пуст"),
    (r"the image is too large to decode \(or its header is corrupt\)",
     "изображение слишком велико для декодирования (или повреждён его заголовок)"),
    (r"not an image that can be decoded \(corrupt or unsupported format\)",
     "это не изображение, которое можно прочитать (файл повреждён или формат не поддерживается)"),
    (r"the image is too small \((?P<s>\d+x\d+) px\) to hold a legible serial",
     "изображение слишком мало ({s} пикс.), чтобы на нём читался номер"),
    (r"no whole (?P<p>\d+x\d+) chessboard found", "не найдена целая доска {p}"),
    (r"(?P<a>\d+x\d+) px, the others are (?P<b>\d+x\d+)", "{a} пикс., а остальные {b}"),
    (r"Only (?P<a>\d+) of (?P<b>\d+) photo\(s\) can be used \(at least (?P<c>\d+) are needed\); take more photos of "
     r"the chessboard\.", "Пригодны только {a} из {b} снимков (нужно не меньше {c}); сделайте больше снимков шахматной "
                          "доски."),
    (r"Camera (?P<n>.+?) gave no frame\.", "Камера {n} не дала кадра."),
    (r"--pattern must be the inner corners as COLSxROWS, at least 3x3 \(e\.g\. 9x6\), not (?P<q>.+)\.",
     "--pattern — это внутренние углы в виде COLSxROWS, не меньше 3x3 (например, 9x6), а не {q}."),
    (r"(?P<n>\d+) usable chessboard view\(s\): at least (?P<m>\d+) are needed\.",
     "Пригодных снимков шахматной доски: {n}; нужно не меньше {m}."),
    (r"OpenCV could not calibrate from these views \((?P<x>.*)\)\.", "OpenCV не смог откалибровать по этим снимкам ({x})."),
    # read --debug-dir's annotated copies (app/debug_copies.py)
    (r"cannot write the annotated copy (?P<p>.+?): OpenCV could not encode it\.",
     "нельзя записать размеченную копию {p}: OpenCV не смог её закодировать."),
    (r"cannot write the annotated copy (?P<p>.+?): (?P<sayx>.+?)\.?", "нельзя записать размеченную копию {p}: {sayx}."),
    # score's paths (app/hand_folders.py, app/photo_files.py, app/result_files.py)
    (r"(?P<p>.+): is a file; give a hand folder or a folder of hand folders\.",
     "{p}: это файл; укажите папку раздачи или папку с папками раздач."),
    (r"(?P<p>.+): cannot be read \((?P<sayx>.+)\)\.", "{p}: не читается ({sayx})."),
    (r"(?P<p>.+): is not a regular file \(a pipe\), so it is not read\.",
     "{p}: это не обычный файл (канал), поэтому он не читается."),
    (r"(?P<p>.+): is not a regular file \(a socket\), so it is not read\.",
     "{p}: это не обычный файл (сокет), поэтому он не читается."),
    (r"(?P<p>.+): is not a regular file \(a device\), so it is not read\.",
     "{p}: это не обычный файл (устройство), поэтому он не читается."),
    (r"cannot write (?P<p>.+?): (?P<sayx>.+)\.", "нельзя записать {p}: {sayx}."),
    # live's set-up (app/live_run.py, live/frame_source.py, live/history.py, capture.py)
    (r"the calibration (?P<q>'.*') has no board zone, which Hold'em needs; calibrate the table with one, or play "
     r"--game indian \(no board\)\.", "в калибровке {q} нет зоны борда, а она нужна для Hold'em; откалибруйте стол с "
                                      "ней или играйте в '--game indian' (без борда)."),
    (r"--dealer: (?P<say>.+)", "--dealer: {say}"),
    (r"--camera is empty: give a camera number, a video file, a URL or a glob of images\.",
     "--camera пуст: укажите номер камеры, видеофайл, URL или шаблон изображений."),
    (r"(?P<p>.+) is a named pipe or a socket, not a camera, video or image\.",
     "{p} — именованный канал или сокет, а не камера, видео или изображение."),
    (r"(?P<p>.+) cannot be opened as a video\.", "{p} не открывается как видео."),
    (r"No image matches (?P<p>.+)\.", "Под {p} не подходит ни одно изображение."),
    (r"The folder (?P<p>.+) holds no image \((?P<l>.+)\)\.", "В папке {p} нет изображений ({l})."),
    (r"The stream (?P<p>.+) cannot be opened\.", "Поток {p} не открывается."),
    (r"Camera (?P<n>.+?) cannot be opened \(camera numbers are 0, 1, 2, \.\.\.\)\.",
     "Камера {n} не открывается (номера камер: 0, 1, 2, ...)."),
    (r"Camera (?P<n>.+?) cannot be opened \(camera numbers are 0, 1, 2, \.\.\., (?P<m>\d+) at most\)\.",
     "Камера {n} не открывается (номера камер: 0, 1, 2, ..., не больше {m})."),
    (r"Camera (?P<n>.+?) cannot be opened \(is it connected, and not used by another program\?\)\.",
     "Камера {n} не открывается (подключена ли она и не занята ли другой программой?)."),
    (r"--camera-size must be WIDTHxHEIGHT in pixels, e\.g\. 1920x1080, not (?P<q>.+)\.",
     "--camera-size должен иметь вид ШИРИНАxВЫСОТА в пикселях, например 1920x1080, а не {q}."),
    (r"--fourcc must be four letters or digits such as MJPG or YUYV, not (?P<q>.+)\.",
     "--fourcc — это четыре буквы или цифры, например MJPG или YUYV, а не {q}."),
    (r"The hand log path is empty; give --log FILE or --no-log\.",
     "Путь к журналу раздач пуст; укажите --log FILE или --no-log."),
    (r"The hand log (?P<p>.+) cannot be created \((?P<sayx>.+)\)\.", "Журнал раздач {p} не удаётся создать ({sayx})."),
    (r"The hand log (?P<p>.+) cannot be opened \((?P<sayx>.+)\)\.", "Журнал раздач {p} не открывается ({sayx})."),
    (r"The hand log (?P<p>.+) cannot be read \((?P<sayx>.+)\)\.", "Журнал раздач {p} не читается ({sayx})."),
    (r"The hand log (?P<p>.+) is not a regular file \(a device or a pipe\); give a file\.",
     "Журнал раздач {p} — не обычный файл (устройство или канал); укажите файл."),
    (r"The hand log (?P<p>.+) is not writable\.", "В журнал раздач {p} нельзя писать."),
    (r"The hand log (?P<p>.+) cannot be written \((?P<sayx>[^)]+)\)(?P<saytail>; .+)\.",
     "В журнал раздач {p} не удаётся записать ({sayx}){saytail}."),
    (r"; the hand is not in it", "; раздачи в нём нет"),
    (r"; the hand is not in it \(the log is as it was before\)", "; раздачи в нём нет (журнал остался прежним)"),
    (r"; part of the hand may be left as its last line, torn, which the log's readers skip with a warning",
     "; часть раздачи могла остаться его последней, оборванной строкой, которую читатели журнала пропускают с "
     "предупреждением"),
    (r"(?P<say>.+?) It is kept in (?P<p>.+); the log is tried again when the next hand finishes\.",
     "{say} Она сохранена в {p}; запись в журнал повторится, когда закончится следующая раздача."),
    (r"(?P<say>.+?) It is not kept in a file either \((?P<sayx>.+)\), so it is printed at the end; the log is tried "
     r"again when the next hand finishes\.",
     "{say} В файл её сохранить тоже не удалось ({sayx}), поэтому она будет напечатана в конце; запись в журнал "
     "повторится, когда закончится следующая раздача."),
    # calibrate notes / table / check (app/note_setup.py, app/table_setup.py, app/profiles.py, calibration/)
    (r"Cannot encode (?P<p>.+?) as (?P<k>.+)\.", "Не удаётся закодировать {p} как {k}."),
    (r"--output (?P<p>.+) is the photo being checked; give another file \(the annotated copy would replace the "
     r"photo\)\.", "--output {p} — это проверяемый снимок; укажите другой файл (размеченная копия заменила бы снимок)."),
    (r"--output must end in \.jpg, \.png or another image type \((?P<l>.+)\), not (?P<q>.+)\.",
     "--output должен кончаться на .jpg, .png или другой тип изображения ({l}), а не {q}."),
    (r"The board would be (?P<w>\d+) x (?P<h>\d+) px; at most (?P<m>\d+) px a side is written: use a smaller "
     r"--square-px or --pattern\.", "Доска вышла бы {w} x {h} пикс.; записывается не больше {m} пикс. по стороне: "
                                    "возьмите меньший --square-px или --pattern."),
    (r"The photos do not agree on a layout: (?P<x>.+)\.", "Снимки не сходятся в раскладке: {x}."),
    (r"Cannot write (?P<p>.+?) \((?P<sayx>.+)\)\.", "Нельзя записать {p} ({sayx})."),
    (r"Cannot write (?P<p>.+?): the profile (?P<sayx>.+)\.", "Нельзя записать {p}: профиль {sayx}."),
    (r"Cannot create the calibration folder (?P<p>.+?) \((?P<sayx>.+)\)\.",
     "Нельзя создать папку калибровки {p} ({sayx})."),
    (r"(?P<p>.+?) points to the profile (?P<q>'.*'): write to --output (?P<o>.+?), or to a new name and make it the "
     r"default with `dealer-assist calibrate use NAME`\.",
     "{p} указывает на профиль {q}: запишите в --output {o} или под новым именем и сделайте его профилем по "
     "умолчанию командой `dealer-assist calibrate use NAME`."),
    (r"(?P<say>.+?) Refusing to overwrite it: fix or remove it, or choose another --output\.",
     "{say} Перезаписывать его не буду: исправьте или удалите его либо выберите другой --output."),
    (r"(?P<say>No display is available \(DISPLAY and WAYLAND_DISPLAY are not set\), so no window can be opened), and "
     r"nothing was written: give the corners with --corners 'x,y x,y x,y x,y' or use --aruco\.",
     "{say}, и ничего не записано: укажите углы через --corners 'x,y x,y x,y x,y' или используйте --aruco."),
    (r"(?P<say>No display is available \(DISPLAY and WAYLAND_DISPLAY are not set\), so no window can be opened), and "
     r"nothing was written: the photo shows the corner markers, so use --aruco instead of --interactive \(or give "
     r"--corners\)\.", "{say}, и ничего не записано: на снимке видны угловые маркеры, так что используйте --aruco "
                       "вместо --interactive (или укажите --corners)."),
    (r"No display is available \(DISPLAY and WAYLAND_DISPLAY are not set\), so no window can be opened",
     "Дисплея нет (DISPLAY и WAYLAND_DISPLAY не заданы), поэтому окно открыть нельзя"),
    (r"(?P<o>--[\w-]+) must be two numbers as W,H \(e\.g\. 1000,700\), not (?P<q>.+)\.",
     "{o} — это два числа в виде W,H (например, 1000,700), а не {q}."),
    (r"(?P<o>--[\w-]+) must be two positive numbers, not (?P<q>.+)\.", "{o} — это два положительных числа, а не {q}."),
    (r"--corners needs four image points as 'x,y x,y x,y x,y' \(px, clockwise from the table's top-left\)\.",
     "--corners нужны четыре точки снимка в виде 'x,y x,y x,y x,y' (пикс., по часовой стрелке от левого верхнего "
     "угла стола)."),
    (r"Give either --image FILE or --camera N \(one frame is grabbed\)\.",
     "Укажите либо --image FILE, либо --camera N (берётся один кадр)."),
    (r"Give exactly one of --corners, --aruco or --interactive\.",
     "Укажите ровно что-то одно: --corners, --aruco или --interactive."),
    (r"Give either --seats NAME,NAME,\.\.\. \(automatic zones\) or --zones FILE\.json\.",
     "Укажите либо --seats NAME,NAME,... (зоны автоматически), либо --zones FILE.json."),
    (r"--table-mm W,H is needed with --corners or --interactive\.", "С --corners или --interactive нужен --table-mm W,H."),
    (r"The fit gives a table of (?P<w>\S+) x (?P<h>\S+) m, so nothing was written: (?P<saycheck>check .+)\.",
     "По подгонке стол выходит {w} x {h} м, поэтому ничего не записано: {saycheck}."),
    (r"The fitted plane puts only (?P<p>\S+) of the (?P<w>\S+) x (?P<h>\S+) mm table inside the (?P<iw>\S+) x "
     r"(?P<ih>\S+) px photo, so nothing was written: (?P<saycheck>check .+)\.",
     "По подобранной плоскости внутри снимка {iw} x {ih} пикс. оказывается только {p} стола {w} x {h} мм, поэтому "
     "ничего не записано: {saycheck}."),
    (r"check --table-mm, --marker-mm and --marker-inset-mm \(millimetres\)",
     "проверьте --table-mm, --marker-mm и --marker-inset-mm (в миллиметрах)"),
    (r"check --table-mm \(millimetres\)", "проверьте --table-mm (в миллиметрах)"),
    (r"check the corners \(image px, clockwise from the table's top-left\) and --table-mm \(millimetres\)",
     "проверьте углы (пикс. снимка, по часовой стрелке от левого верхнего угла стола) и --table-mm (в миллиметрах)"),
    (r"check --table-mm, --marker-mm and --marker-inset-mm", "проверьте --table-mm, --marker-mm и --marker-inset-mm"),
    (r"check --table-mm", "проверьте --table-mm"),
    (r"check the corners \(image px, clockwise from the table's top-left\) and --table-mm",
     "проверьте углы (пикс. снимка, по часовой стрелке от левого верхнего угла стола) и --table-mm"),
    (r"The photo is (?P<w>\d+)x(?P<h>\d+) px but the camera section was calibrated at (?P<cw>\d+)x(?P<ch>\d+) px: use "
     r"frames of one size\.", "Снимок {w}x{h} пикс., а камера откалибрована на {cw}x{ch} пикс.: используйте кадры "
                              "одного размера."),
    (r"(?P<l>.+?) (?P<sayr>(?:does not|is|cannot|holds|gives) .+), so it gives no zones\.",
     "{l}: {sayr}, поэтому зон из него не получить."),
    (r"No ArUco marker \(DICT_4X4_50\) was found in the photo\.", "На снимке не найдено ни одного маркера ArUco "
                                                                  "(DICT_4X4_50)."),
    (r"Corner clicking cancelled; nothing was written\.", "Выбор углов отменён; ничего не записано."),
    (r"The profile (?P<p>.+) has no camera section\.", "В профиле {p} нет раздела камеры."),
    (r"The calibration (?P<q>'.*') has no table section: run `dealer-assist calibrate table` first\.",
     "В калибровке {q} нет раздела стола: сначала запустите `dealer-assist calibrate table`."),
    (r"The photo is (?P<w>\d+)x(?P<h>\d+) px but the calibration (?P<q>'.*') was made on (?P<cw>\d+)x(?P<ch>\d+) px "
     r"frames of another shape: ask the camera for that size \(--camera-size (?P<s>\S+)\), or calibrate this set-up "
     r"again \(dealer-assist calibrate table --camera N \.\.\. --output (?P<o>.+)\)\.",
     "Снимок {w}x{h} пикс., а калибровка {q} сделана на кадрах {cw}x{ch} пикс. другой формы: запросите у камеры "
     "этот размер (--camera-size {s}) или откалибруйте эту установку заново (`dealer-assist calibrate table --camera "
     "N ... --output {o}`)."),
    (r"(?P<p>.+?) is not a calibration profile \(it holds no JSON object\)\.",
     "{p} — не профиль калибровки (в нём нет объекта JSON)."),
    (r"(?P<p>.+?) is not a calibration profile \(its \"schema\" is not (?P<s>.+)\)\.",
     "{p} — не профиль калибровки (его \"schema\" — не {s})."),
    (r"(?P<p>.+?) has calibration version (?P<v>.+?); this program reads version (?P<w>.+)\.",
     "У {p} версия калибровки {v}; эта программа читает версию {w}."),
    (r"(?P<p>.+?) is not a valid calibration profile: (?P<loc>[\w.\[\]-]+|the file): (?P<sayx>.+)\.",
     "{p} — неверный профиль калибровки: {loc}: {sayx}."),
    (r"(?P<p>.+?) is not a valid calibration profile: (?P<sayx>.+)\.", "{p} — неверный профиль калибровки: {sayx}."),
    # pydantic's words for a field of a profile (calibration/schema.py: _first_error, first letter in lower case)
    (r"field required", "поле обязательно"),
    (r"extra inputs are not permitted", "лишние поля не допускаются"),
    (r"input should be a valid number(?:, unable to parse string as a number)?", "нужно число"),
    (r"input should be a valid integer(?:, unable to parse string as an integer)?", "нужно целое число"),
    (r"input should be a valid list", "нужен список"),
    (r"input should be a valid dictionary or instance of .+", "нужен объект"),
    (r"input should be a valid string", "нужна строка"),
    (r"both values must be positive", "оба значения должны быть положительными"),
    (r"must be \[\[fx, s, cx\], \[0, fy, cy\], \[0, 0, 1\]\] with positive focal lengths",
     "должна быть [[fx, s, cx], [0, fy, cy], [0, 0, 1]] с положительными фокусными расстояниями"),
    (r"must hold 4, 5, 8, 12 or 14 coefficients \(OpenCV's distortion models\)",
     "должна содержать 4, 5, 8, 12 или 14 коэффициентов (модели дисторсии OpenCV)"),
    (r"the polygon has no area", "у многоугольника нет площади"),
    (r"the homography is not invertible", "гомография необратима"),
    (r"zones must hold exactly one board zone, named 'board', or none \(a table of Indian poker only\)",
     "зоны должны содержать ровно одну зону борда с именем 'board' или ни одной (стол только для индийского покера)"),
    (r"zone names must be unique", "имена зон должны быть разными"),
    (r"must be \[x0, y0, x1, y1\] with 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1",
     "должна быть [x0, y0, x1, y1], где 0 <= x0 < x1 <= 1 и 0 <= y0 < y1 <= 1"),
    (r"(?P<q>.+?) is not a usable seat name \(letters, digits, _ and -, not 'board'\)",
     "{q} не годится как имя места (буквы, цифры, _ и -, но не 'board')"),
    (r"(?P<q>.+?) is not a profile name \(use letters, digits, _ \. -\) nor a path ending in \.json\.",
     "{q} — не имя профиля (буквы, цифры, _ . -) и не путь, оканчивающийся на .json."),
    (r"(?P<p>.+?) points to no usable profile \(\"profile\" must name another profile\)\.",
     "{p} не указывает на пригодный профиль (\"profile\" должен называть другой профиль)."),
    (r"(?P<p>.+?) points to (?P<q>.+?), which is not a profile name \(letters, digits, _ \. -\) in the calibration "
     r"folder; run `dealer-assist calibrate use NAME` to fix it\.",
     "{p} указывает на {q}, а это не имя профиля (буквы, цифры, _ . -) в папке калибровки; исправьте это командой "
     "`dealer-assist calibrate use NAME`."),
    (r"The default must be a profile name in the calibration folder, not a path or 'default'\.",
     "Профиль по умолчанию — это имя профиля в папке калибровки, а не путь и не 'default'."),
    (r"No calibration file at (?P<p>.+)\.", "Файла калибровки {p} нет."),
    (r"The default profile is (?P<q>'.*') \(set by `dealer-assist calibrate use`\), but (?P<p>.+) does not exist; "
     r"make it with `dealer-assist calibrate table` or choose another with `calibrate use NAME`\.",
     "Профиль по умолчанию — {q} (задан командой `dealer-assist calibrate use`), но {p} не существует; создайте его "
     "командой `dealer-assist calibrate table` или выберите другой: `calibrate use NAME`."),
    (r"(?P<l>.+?) (?P<saybarer>(?:does not|is|cannot|holds|gives) .+), so it is no calibration profile\.",
     "{l}: {saybarer}, так что это не профиль калибровки."),
    (r"The file that sets the default profile, (?P<p>.+?), is damaged: it (?P<saybarer>.+); `dealer-assist calibrate "
     r"use NAME` sets the default again\.",
     "Файл, задающий профиль по умолчанию, {p}, повреждён: {saybarer}; `dealer-assist calibrate use NAME` задаёт "
     "профиль по умолчанию заново."),
    (r"The four corners do not make a convex quadrilateral: check their order and values\.",
     "Четыре угла не образуют выпуклый четырёхугольник: проверьте их порядок и значения."),
    (r"The four corners go anticlockwise: give them clockwise from the table's top-left corner\.",
     "Четыре угла идут против часовой стрелки: укажите их по часовой стрелке от левого верхнего угла стола."),
    (r"The markers do not determine the table plane \(they may lie on one line\)\.",
     "Маркеры не задают плоскость стола (возможно, они лежат на одной прямой)."),
    (r"The automatic layout takes 2 to 10 seats, not (?P<n>.+)\.", "Автоматическая раскладка — от 2 до 10 мест, а не {n}."),
    (r"A (?P<w>\S+) x (?P<h>\S+) mm table is too small for the automatic layout \(board (?P<bw>\S+) x (?P<bh>\S+) mm "
     r"plus seats round it\): give the zones in a JSON file with --zones\.",
     "Стол {w} x {h} мм слишком мал для автоматической раскладки (борд {bw} x {bh} мм и места вокруг): укажите зоны в "
     "файле JSON через --zones."),
    (r"Seat name\(s\) given twice: (?P<l>.+)\.", "Имена мест указаны дважды: {l}."),
    (r"(?P<p>.+?) holds no zone list \(see `dealer-assist calibrate table --help`\)\.",
     "В {p} нет списка зон (см. `dealer-assist calibrate table --help`)."),
    (r"(?P<p>.+?): at most one zone may be the board \(kind and name \"board\"\)\.",
     "{p}: бордом может быть не больше одной зоны (\"kind\" и \"name\" — \"board\")."),
    (r"(?P<p>.+?): there is no seat zone\.", "{p}: нет ни одной зоны места."),
    (r"(?P<p>.+?): there is no board zone and only 1 seat zone; a table needs a board zone \(kind and name "
     r"\"board\"\), or 2 seats or more for Indian poker, which has no board\.",
     "{p}: нет зоны борда и только 1 зона места; столу нужна зона борда (\"kind\" и \"name\" — \"board\") или, для индийского "
     "покера без борда, 2 места и больше."),
    (r"ArUco marker\(s\) (?P<l>.+?) not found: all four corner markers \(ids 0-3, DICT_4X4_50\) are needed to measure "
     r"the table; give --table-mm W,H to use the others\.",
     "Маркеры ArUco {l} не найдены: чтобы измерить стол, нужны все четыре угловых маркера (id 0-3, DICT_4X4_50); "
     "укажите --table-mm W,H, чтобы использовать остальные."),
    (r"Only (?P<n>\d+) corner marker\(s\) found \(ids 0-3, DICT_4X4_50; missing (?P<l>.+?)\): at least three are "
     r"needed\.", "Найдено угловых маркеров: {n} (id 0-3, DICT_4X4_50; нет {l}); нужно не меньше трёх."),
    (r"(?P<q>.+?) cannot name a seat: use letters, digits, _ and -, without a -N ending, and not 'board'\.",
     "{q} не может быть именем места: используйте буквы, цифры, _ и -, без окончания -N и не 'board'."),
    (r"(?P<p>.+?): zone (?P<n>\S+) is not a JSON object\.", "{p}: зона {n} — не объект JSON."),
    (r"(?P<p>.+?): zone (?P<n>\S+) needs a \"name\" and a \"kind\" of board or seat\.",
     "{p}: зоне {n} нужны \"name\" и \"kind\" (\"board\" или \"seat\")."),
    (r"(?P<p>.+?): zone (?P<n>\S+) needs \"polygon_mm\": at least three \[x, y\] points in mm\.",
     "{p}: зоне {n} нужен \"polygon_mm\": не меньше трёх точек [x, y] в мм."),
    (r"(?P<p>.+?): zone (?P<n>\S+) has a polygon without area\.", "{p}: у многоугольника зоны {n} нет площади."),
    (r"(?P<p>.+?): the zones (?P<a>\S+) and (?P<b>\S+) overlap \((?P<s>\S+) mm² in common\), so a note lying there "
     r"would belong to both; make them apart\.",
     "{p}: зоны {a} и {b} перекрываются (общая площадь {s} мм²), и купюра там принадлежала бы обеим; разведите их."),
    # the commands' option checks (cli/)
    (r"a serial is 7 digits, not (?P<q>.+)\.", "номер — это 7 цифр, а не {q}."),
    (r"--hands takes every hand from the file; drop (?P<l>.+)\.", "--hands берёт все раздачи из файла; уберите {l}."),
    (r"give --hands FILE, or one hand with --position, --board and --player \(see --help\)\.",
     "укажите --hands FILE или одну раздачу через --position, --board и --player (см. --help)."),
    (r"give --json or --csv, not both\.", "укажите --json или --csv, но не оба."),
    (r"--club sends the hands from the log \(the table keeps its own record first\); give --log FILE or leave out "
     r"--no-log\.", "--club отправляет раздачи из журнала (стол сначала ведёт свою запись); укажите --log FILE или "
                    "уберите --no-log."),
    (r"--club needs --table T: the table's name in the club \(e\.g\. --table T1\)\.",
     "--club нужен --table T: имя стола в клубе (например, --table T1)."),
    (r"--table names this table in a club; give --club URL too\.", "--table называет этот стол в клубе; укажите и "
                                                                     "--club URL."),
    (r"Indian poker has no zero-joker and no rollover \(RULES\.md §7\); drop --zero-joker and --tie-policy\.",
     "В индийском покере нет ноль-джокера и переноса банка (RULES.md §7); уберите --zero-joker и --tie-policy."),
    (r"must be at most (?P<m>\S+) chips, not (?P<q>\S+) \((?P<n>\S+) digits\)\.",
     "должно быть не больше {m} фишек, а не {q} (цифр: {n})."),
    (r"cannot print the results: (?P<sayx>.+)\.", "нельзя напечатать результаты: {sayx}."),
    (r"cannot print the report: (?P<sayx>.+)\.", "нельзя напечатать отчёт: {sayx}."),
    # the club (club/)
    (r"--club must be a PostgreSQL URL such as postgresql://user@host/club, not (?P<q>.+)\.",
     "--club должен быть URL PostgreSQL, например postgresql://user@host/club, а не {q}."),
    (r"--club (?P<q>.+?) is not a valid PostgreSQL URL \((?P<x>.*)\)\.", "--club {q} — неверный URL PostgreSQL ({x})."),
    (r"The club database has schema version (?P<v>\S+), not (?P<w>\S+): run `dealer-assist club init URL` once first\.",
     "У базы клуба версия схемы {v}, а не {w}: сначала один раз запустите `dealer-assist club init URL`."),
    (r"The club database has schema version (?P<v>\S+); this dealer-assist knows up to (?P<w>\S+)\. Update "
     r"dealer-assist on this machine\.", "У базы клуба версия схемы {v}; эта версия dealer-assist знает только до {w}. "
                                         "Обновите dealer-assist на этом компьютере."),
    (r"The club database's schema cannot be brought up to date \((?P<x>.*)\)\.",
     "Схему базы клуба не удаётся обновить ({x})."),
    (r"Reading the club's hands failed \((?P<x>.*)\)\.", "Не удалось прочитать раздачи клуба ({x})."),
    (r"Storing the hands failed \((?P<x>.*)\); (?P<n>\d+) were stored, run the same sync again for the rest\.",
     "Не удалось сохранить раздачи ({x}); сохранено {n}, запустите ту же синхронизацию ещё раз для остальных."),
    (r"a table name is 1 to 40 letters, digits, '\.', '_' or '-' starting with a letter or a digit \(e\.g\. T1, "
     r"table-2\), not (?P<q>.+)\.", "имя стола — от 1 до 40 букв, цифр, '.', '_' или '-', начиная с буквы или цифры "
                                    "(например, 'T1', 'table-2'), а не {q}."),
    (r"it has no session id \(text of 1 to 100 characters\), so it cannot be stored exactly once",
     "у неё нет id сессии (текст от 1 до 100 символов), поэтому её нельзя сохранить ровно один раз"),
    (r"it has no hand number, so it cannot be stored exactly once",
     "у неё нет номера раздачи, поэтому её нельзя сохранить ровно один раз"),
    (r"it holds a NUL character, which the club's database cannot store",
     "в ней есть символ NUL, который база клуба не может сохранить"),
    # a JSON file that cannot be used (fileio.py: JsonInputError's reasons; the label comes first)
    (r"cannot read (?P<p>.+?): it (?P<sayr>.+)\.", "нельзя прочитать {p}: {sayr}."),
    (r"is empty \(it holds no JSON\)", "пуст (в нём нет JSON)"),
    (r"does not exist", "не существует"),
    (r"cannot be read \((?P<sayx>.+)\)", "не читается ({sayx})"),
    (r"is larger than (?P<n>.+?), the most a JSON file may hold here", "больше {n} — предела для файла JSON здесь"),
    (r"is larger than (?P<n>.+?), the most JSON may hold here", "больше {n} — предела для JSON здесь"),
    (r"is not valid JSON \((?P<sayj>.+?): column (?P<c>\d+)\)", "— не JSON ({sayj}: столбец {c})"),
    (r"is not valid JSON \((?P<sayj>.+?): line (?P<l>\d+), column (?P<c>\d+)\)",
     "— не JSON ({sayj}: строка {l}, столбец {c})"),
    (r"is nested too deeply \(more than (?P<n>\d+) levels of \[ and \{\)",
     "слишком глубоко вложен (больше {n} уровней [ и {{)"),
    (r"is not JSON this program can read \((?P<x>.*)\)", "— не JSON, который эта программа может прочитать ({x})"),
    (r"holds a number of over (?P<n>\d+) digits", "содержит число длиннее {n} цифр"),
    (r"is a folder, not a file", "это папка, а не файл"),
    (r"is a folder", "это папка"),
    (r"(?P<p>.+?): the file name is not UTF-8 text, which OpenCV cannot open; rename the file\.",
     "{p}: имя файла — не текст UTF-8, и OpenCV не может его открыть; переименуйте файл."),
    # the ledger: a hand it leaves out, an option (ledger.py)
    (r"(?P<k>ante|rake) must be a whole number of chips from 0 to (?P<m>\S+), got (?P<q>.+)\.",
     "{k}: нужно целое число фишек от 0 до {m}, а не {q}."),
    (r"hand (?P<sayh>.+?): (?P<say>.+)", "раздача {sayh}: {say}"),  # "hand 3 of session s: …"
    (r"(?P<n>\d+) of session (?P<s>.+)", "{n} сессии {s}"),
    (r"logged again \(the same session, hand number, times, chips and notes\); the copy is left out\.",
     "записана ещё раз (та же сессия, номер раздачи, время, фишки и купюры); копия не учтена."),
    (r"(?P<say>.+?); left out\.", "{say}; не учтена."),
    (r"its payouts and carry \((?P<a>[\d/]+)\) do not add up to the chips put in \((?P<b>[\d/]+)\) and carried in "
     r"\((?P<c>[\d/]+)\)", "её выплаты и перенос ({a}) не равны внесённым ({b}) и перенесённым в неё ({c}) фишкам"),
    (r"its payouts and carry \((?P<a>\d+)\) do not add up to the chips put in \((?P<b>\d+)\)",
     "её выплаты и перенос ({a}) не равны внесённым фишкам ({b})"),
    (r"(?P<q>'.*') is named a winner but is not a player of the hand",
     "{q} назван победителем, но не играл в этой раздаче"),
    (r"no readable finish time to compare with --since", "нет читаемого времени окончания, чтобы сравнить с --since"),
    (r"chips were put in but no settlement is logged", "фишки внесены, но расчёт не записан"),
    # the hand log's records (live/log_record.py: why a line is not a valid hand record)
    (r"(?P<q>.+?) is not a number of chips \(over (?P<m>.+)\)", "{q} — не число фишек (больше {m})"),
    (r"(?P<q>.+?) is not a number of chips \(a share needs a divisor over 0\)",
     "{q} — не число фишек (у доли делитель должен быть больше 0)"),
    (r"(?P<q>.+?) is not a number of chips", "{q} — не число фишек"),
    (r"a negative number of chips", "отрицательное число фишек"),
    (r"a number of chips over (?P<m>\S+) \((?P<n>\d+) digits\)", "число фишек больше {m} (цифр: {n})"),
    (r"a number of chips over (?P<m>\S+) \((?P<n>\d+) bits\)", "число фишек больше {m} (бит: {n})"),
    (r"(?P<q>.+?) is not a time \(ISO 8601\)", "{q} — не время (ISO 8601)"),
    (r"(?P<q>.+?) is not a time", "{q} — не время"),
    (r"(?P<q>.+?) is outside the years (?P<a>\d+)-(?P<b>\d+) a hand can be played in",
     "{q} — вне лет {a}-{b}, в которые может идти раздача"),
    (r"(?P<q>.+?) cannot be placed in local time", "{q} нельзя перевести в местное время"),
    (r"(?P<q>.+?) is not a name", "{q} — не имя"),
    (r"a name is empty", "имя пустое"),
    (r"a name is longer than (?P<n>\d+) characters", "имя длиннее {n} символов"),
    (r"(?P<q>.+?) is not a whole number of chips from 0 to (?P<m>\S+)", "{q} — не целое число фишек от 0 до {m}"),
    (r"more than (?P<n>\S+) names", "больше {n} имён"),
    (r"(?P<q>.+?) is named twice \(written in two Unicode forms\)", "{q} назван дважды (записан в двух формах Юникода)"),
    (r"(?P<kind>'[^']*'|-?\d+|an? \w+|true|false|null) is not one of (?P<list>[\w-]+(?:, [\w-]+)*)",
     "{kind} — не из {list}"),
    # live: the croupier's commands that the table refuses (live/table_state.py, live/commands.py)
    (r"a table needs at least 2 seats\.", "столу нужно не меньше 2 мест."),
    (r"(?P<s>\S+) put (?P<n>\d+) chips in this hand, so plays it; 'chips (?P<t>\S+) 0' first if it sits the hand out\.",
     "{s} внёс в эту раздачу фишек: {n}, значит, играет её; сначала 'chips {t} 0', если место пропускает раздачу."),
    (r"(?P<s>\S+) sits this hand out, so puts no chips in; 'in (?P<t>\S+)' first if the seat plays\.",
     "{s} пропускает эту раздачу и фишек не вносит; сначала 'in {t}', если место играет."),
    (r"Give the seat, e\.g\. '(?P<c>\w+) P3' or '(?P<d>\w+) 3'\.", "Укажите место, например '{c} P3' или '{d} 3'."),
    # a hand line's fields (rules/formats.py, rules/showdown.py, rules/notes.py, rules/odds.py)
    (r"game must be (?P<list>.+?), not (?P<kind>.+)\.", "'game' должно быть {list}, а не {kind}."),
    (r"dealer must be a player's name, got (?P<kind>.+)\.", "'dealer' должно быть именем игрока, а не {kind}."),
    (r"(?P<k>players\[\d+\]) must be an object with name and pocket, got (?P<kind>.+)\.",
     "{k} должен быть объектом с 'name' и 'pocket', а не {kind}."),
    (r"(?P<k>players\[\d+\])\.name must be a string, got (?P<kind>.+)\.", "{k}.name должно быть строкой, а не {kind}."),
    (r"(?P<k>players\[\d+\])\.name must be a non-empty string\.", "{k}.name должно быть непустой строкой."),
    (r"(?P<k>players\[\d+\])\.contributed must be a whole number of chips, got (?P<kind>.+)\.",
     "{k}.contributed должно быть целым числом фишек, а не {kind}."),
    (r"(?P<k>players\[\d+\])\.contributed must be a whole number of chips >= 0, got (?P<q>.+)\.",
     "{k}.contributed должно быть целым числом фишек >= 0, а не {q}."),
    (r"(?P<k>[\w.\[\]]+) must be true or false, got (?P<kind>.+)\.", "{k} должно быть 'true' или 'false', а не {kind}."),
    (r"(?P<k>[\w.\[\]]+) must be true or false\.", "{k} должно быть 'true' или 'false'."),
    (r"(?P<k>players\[\d+\])\.pocket must be a list of 2 serials\.", "{k}.pocket должен быть списком из 2 номеров."),
    (r"(?P<k>[\w.\[\]]+) must be one of (?P<list>.+?), got (?P<q>.+)\.", "{k} должно быть одним из: {list}, а не {q}."),
    (r"(?P<k>[\w.\[\]]+) must be (?P<list>.+?), not (?P<kind>.+)\.", "{k} должно быть {list}, а не {kind}."),
    (r"zero_joker must be off in Indian poker \(RULES\.md §7\.2\), got (?P<q>.+)\.",
     "'zero_joker' в индийском покере должен быть 'off' (RULES.md §7.2), а не {q}."),
    (r"carried_in must be a whole number of chips, got (?P<kind>.+)\.",
     "'carried_in' должно быть целым числом фишек, а не {kind}."),
    (r"carried_in must be a whole number of chips >= 0, got (?P<q>.+)\.",
     "'carried_in' должно быть целым числом фишек >= 0, а не {q}."),
    (r"chips carried in must be a whole number of chips >= 0, got (?P<q>.+)\.",
     "перенесённые фишки должны быть целым числом >= 0, а не {q}."),
    (r"carried_in must be 0 in Indian poker: its pot never carries over \(RULES\.md §7\.4\)\.",
     "'carried_in' в индийском покере должно быть 0: банк в нём не переносится (RULES.md §7.4)."),
    (r"tie_policy must be split in Indian poker: it has no rollover \(RULES\.md §7\.4\)\.",
     "'tie_policy' в индийском покере должен быть 'split': переноса банка в нём нет (RULES.md §7.4)."),
    (r"every player folded; in Indian poker the last player left takes the pot \(RULES\.md §7\.4\)\.",
     "все игроки сбросили; в индийском покере банк забирает последний оставшийся игрок (RULES.md §7.4)."),
    (r"no player still in showed their note; in Indian poker the pot never carries over, so at least one must "
     r"\(RULES\.md §7\.4\)\.", "ни один оставшийся игрок не показал свою купюру; в индийском покере банк не переносится, "
                               "так что хотя бы один должен показать (RULES.md §7.4)."),
    (r"players has (?P<n>\d+) players; Indian poker is for 2 to (?P<m>\d+)\.",
     "игроков: {n}; в индийский покер играют от 2 до {m}."),
    (r"Indian poker is for 2 to 10 players, got (?P<n>\d+)\.", "В индийский покер играют от 2 до 10 игроков, а не {n}."),
    (r"unknown pocket note (?P<q>'.*') of (?P<n>'.*') is not (?:a pocket note|the note) of a player\.",
     "неизвестная карманная купюра {q} игрока {n} — не купюра игрока."),
    (r"the hand has (?P<n>\S+) players; the odds are worked out for at most (?P<m>\d+) \(a table seats 3-8, RULES\.md "
     r"§1\)\.", "в раздаче игроков: {n}; шансы считаются не больше чем для {m} (за столом 3-8 мест, RULES.md §1)."),
    # the spectator server and images (spectator/server.py, vision/images.py)
    (r"Cannot listen on (?P<h>.+?) port (?P<p>\d+) \((?P<sayx>.+)\)\.", "Не удаётся слушать {h}, порт {p} ({sayx})."),
    (r"(?P<p>.+?): the image is too small \((?P<w>\d+)x(?P<h>\d+) px\) to hold a legible serial\.",
     "{p}: изображение слишком мало ({w}x{h} пикс.), чтобы на нём читался номер."),
    (r"(?P<p>.+?): the image is too large to decode \(or its header is corrupt\)\.",
     "{p}: изображение слишком велико для декодирования (или повреждён его заголовок)."),
    (r"(?P<p>.+?): the image is too large to decode \((?P<n>\S+) megapixels\): a photo may have at most (?P<m>\S+) "
     r"megapixels here \(twice the largest phone photo\), so it is not read\.",
     "{p}: изображение слишком велико для декодирования ({n} Мпикс.): снимок здесь может быть не больше {m} Мпикс. "
     "(вдвое больше самого крупного снимка телефона), поэтому он не читается."),
    (r"(?P<p>.+?): the image is too large to decode: a photo may have at most (?P<m>\S+) megapixels here \(twice the "
     r"largest phone photo\), so it is not read\.",
     "{p}: изображение слишком велико для декодирования: снимок здесь может быть не больше {m} Мпикс. (вдвое больше "
     "самого крупного снимка телефона), поэтому он не читается."),
    # what live says at its end (app/live_run.py, app/frame_loop.py) and read's notes (cli/read_cmd.py)
    (r"the result cannot be written to standard output \((?P<sayx>.+)\)\.",
     "результат не удаётся записать на стандартный вывод ({sayx})."),
    (r"(?P<n>\d+) hand\(s\) are not in the club yet \((?P<sayx>.+?)\); they stay in the log: the next live --club "
     r"sends them, or run (?P<c>dealer-assist club sync --log .+ --club URL --table .+)\.",
     "Раздач ещё нет в клубе: {n} ({sayx}); они остаются в журнале: их отправит следующий `live --club`, или "
     "запустите `{c}`."),
    (r"not sent", "не отправлены"),
    (r"--camera-size and --fourcc ask a numbered camera for a mode; a recording or a stream gives its own, so they "
     r"were not used\.", "--camera-size и --fourcc задают режим камеры по номеру; у записи или потока режим свой, "
                         "так что они не использованы."),
    (r"Skipped (?P<n>\d+) file\(s\) of the recording that are not images OpenCV can read: (?P<l>.+)\.",
     "Пропущено файлов записи, которые OpenCV не читает как изображения: {n}: {l}."),
    (r"No frame could be read from (?P<p>.+): it is not an image OpenCV can read\.",
     "Из {p} не удалось прочитать ни одного кадра: это не изображение, которое читает OpenCV."),
    (r"No frame could be read from (?P<p>.+): none of its files is an image OpenCV can read\.",
     "Из {p} не удалось прочитать ни одного кадра: ни один из его файлов не изображение, которое читает OpenCV."),
    (r"No frame could be read from (?P<p>.+)\.", "Из {p} не удалось прочитать ни одного кадра."),
    (r"(?P<say>.+?) The other (?P<n>\d+) annotated copies are not written\.",
     "{say} Остальные размеченные копии ({n}) не записаны."),
    (r"the profile (?P<p>.+) has no note layout \(run `dealer-assist calibrate notes`\); reading without it\.",
     "в профиле {p} нет раскладки купюры (запустите `dealer-assist calibrate notes`); чтение без неё."),
    # a hand log's lines that are no records, and the ledger's names (live/history.py: record_from_line,
    # ledger.py: name_warnings), said by history and ledger after "warning: " (cli/output.py: print_warnings)
    (r"line (?P<n>\d+) of (?P<p>.+?) is longer than (?P<m>\d+) MiB, so it is no hand record; skipped\.",
     "строка {n} в {p} длиннее {m} МиБ, так что это не запись раздачи; пропущена."),
    (r"line (?P<n>\d+) of (?P<p>.+?) holds only NUL bytes \(left by a power cut during a write\?\); skipped\.",
     "строка {n} в {p} состоит только из байтов NUL (след отключения питания во время записи?); пропущена."),
    (r"line (?P<n>\d+) of (?P<p>.+?) is not a whole record \(cut by a crash\?\); skipped\.",
     "строка {n} в {p} — неполная запись (оборвана сбоем?); пропущена."),
    (r"line (?P<n>\d+) of (?P<p>.+?) begins with a record cut by a crash, then a whole record with no newline between "
     r"\(appended after the cut, e\.g\. by cat\); the cut part is skipped, the whole record read\.",
     "строка {n} в {p} начинается с записи, оборванной сбоем, за которой без перевода строки идёт целая запись "
     "(дописана после обрыва, например через cat); оборванная часть пропущена, целая запись прочитана."),
    (r"line (?P<n>\d+) of (?P<p>.+?) is not a hand record; skipped\.", "строка {n} в {p} — не запись раздачи; пропущена."),
    (r"line (?P<n>\d+) of (?P<p>.+?) is a hand record of version (?P<v>.+?); this program reads version (?P<w>\d+); "
     r"skipped\.", "строка {n} в {p} — запись раздачи версии {v}; эта программа читает версию {w}; пропущена."),
    (r"line (?P<n>\d+) of (?P<p>.+?) is not a valid hand record \((?P<sayx>.+)\); skipped\.",
     "строка {n} в {p} — неверная запись раздачи ({sayx}); пропущена."),
    (r"line (?P<n>\d+) of (?P<p>.+?) (?P<sayr>(?:is|does|cannot|holds) .+); skipped\.",
     "строка {n} в {p}: {sayr}; пропущена."),
    (r"and (?P<n>\d+) more (?P<saywhat>.+)", "и ещё {n}: {saywhat}"),
    (r"line\(s\) of the log that are not hand records; skipped\.", "строк журнала, которые не записи раздач; пропущены."),
    (r"hand record\(s\) left out of the ledger\.", "записей раздач, не вошедших в расчёт."),
    (r"names that look alike\.", "похожих имён."),
    (r"players (?P<l>.+) look alike but are counted as (?P<n>\d+) different players; check the seat names\.",
     "игроки {l} похожи, но считаются {n} разными игроками; проверьте имена мест."),
    (r"a player is named (?P<q>.+), like the organiser \(the house, who keeps the rake\); the player is counted apart "
     r"from the house\.", "игрок назван {q}, как организатор (заведение, которому идёт рейк); игрок считается "
                         "отдельно от заведения."),
    (r"a player is named (?P<q>.+), like the carried pot \(rolled-over chips\); the player is counted apart from it\.",
     "игрок назван {q}, как переходящий банк (перенесённые фишки); игрок считается отдельно от него."),
    # hand.json's settings refused (app/hand_folders.py: read_settings_file, said in score's review reasons)
    (r"(?P<p>.+?) holds no JSON object, so its settings cannot be used\.",
     "{p} не содержит объекта JSON, поэтому его настройки не используются."),
    # a JSON file refused (fileio.py: JsonInputError, "<label> <reason>."), after every sentence more particular
    (r"(?P<l>.+?) is a folder, not a file\.", "{l} — папка, а не файл."),
    (r"(?P<l>.+?) (?P<sayr>(?:is empty \(it holds no JSON\)|does not exist|cannot be read \(.+\)|is larger than .+|"
     r"is not valid JSON \(.+\)|is nested too deeply .+|is not JSON this program can read .+|holds a number of over "
     r".+))\.", "{l} {sayr}."),
    # calibrate notes: the photos that gave no note (app/note_setup.py: learn_notes)
    (r"(?P<p>[^;]+?): no note whose two serial prints read alike(?P<sayrest>(?:; .+?)?)(?P<dot>\.?)",
     "{p}: нет купюры, два номера которой читаются одинаково{sayrest}{dot}"),
    (r"; (?P<say>.+)", "; {say}"),
    # live: what an Indian poker showdown waits for (live/table_view.py), the rules refusing the hand's chips
    (r"(?P<s>.+?): the note is not known yet\.", "{s}: купюра ещё неизвестна."),
    (r"(?P<s>.+?): the note is not known yet \(none on the table now: the camera saw this seat's notes earlier; type "
     r"them, fold the seat or call the showdown\)\.", "{s}: купюра ещё неизвестна (сейчас на столе её нет, камера "
                                                   "видела её раньше; введите номер, сбросьте место или объявите "
                                                   "вскрытие)."),
    (r"(?P<s>.+?): the note is not known yet \(the croupier put this seat in the hand; type them, fold the seat or "
     r"call the showdown\)\.", "{s}: купюра ещё неизвестна (крупье ввёл это место в раздачу; введите номер, сбросьте "
                               "место или объявите вскрытие)."),
    (r"The board zone holds (?P<n>\d+) note\(s\); Indian poker has no board, so they do not play\.",
     "В зоне борда купюр: {n}; в индийском покере борда нет, так что они не играют."),
    (r"(?P<p>[^;]+?): (?P<n>\d+) notes; only the first is used", "{p}: купюр {n}; используется только первая"),
    (r"its file name is no profile name \(letters, digits, _ \. -\); rename the file, or give it as a path",
     "имя его файла — не имя профиля (буквы, цифры, _ . -); переименуйте файл или укажите его как путь"),
    # score: a stray read not counted (app/verdicts.py: stray_remark)
    (r"(?P<img>.+?): a stray read(?P<saywhy> \(.+\))? is not counted as a note: one print, at most one 7-digit "
     r"read\.", "{img}: случайное чтение{saywhy} не считается купюрой: один отпечаток и не больше одного чтения из 7 "
                "цифр."),
    (r" \((?P<say>.+)\)", " ({say})"),
    (r"only one read \((?P<v>\d+)\)", "только одно прочтение ({v})"),
    # (last: a settings file's name before a sentence of its own; every sentence more particular comes first)
    (r"(?P<f>hand\.json|[\w.-]+\.json): (?P<say>.+)", "{f}: {say}"),
)
