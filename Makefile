# Set-up and everyday commands. `make demo` and `make test` each do the whole
# set-up on a fresh Debian machine (as root): Debian packages, a virtual
# environment in .venv, the package in editable mode.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
APT_PACKAGES := tesseract-ocr tesseract-ocr-rus libgl1 libglib2.0-0 fonts-dejavu-core \
                fonts-dejavu-extra fonts-liberation fonts-freefont-ttf \
                chromium chromium-driver postgresql

.PHONY: setup system venv demo test test-fast bench samples clean

setup: system venv

# Install only the Debian packages that are missing (needs root, or sudo).
system:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@# rapidocr pulls opencv-python-headless, which ships the same cv2 module as
	@# opencv-python; reinstall the full build last so cv2 keeps its GUI (preview windows).
	$(BIN)/pip install -q --no-deps --force-reinstall "opencv-python==$$($(BIN)/python -c 'import importlib.metadata as m; print(m.version("opencv-python"))')"
	touch $@

# The main job on the bundled synthetic photographed hands.
demo: setup
	$(BIN)/dealer-assist score sample_images/

# The whole test suite (the README's command; CI runs it).
test: setup
	$(BIN)/python -m pytest -q

# Every test not marked slow (no OCR reads of photos, no rendered scenes, no
# processes started): under a minute on an idle machine, for use while working.
test-fast: setup
	$(BIN)/python -m pytest -q -m "not slow"

bench: setup
	$(BIN)/python benchmarks/bench_rules.py

# Re-render the committed synthetic sample_images/ (deterministic; about 30 s).
samples: setup
	$(BIN)/python -m dealer_assist.synth.regenerate

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
