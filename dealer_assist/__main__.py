"""``python -m dealer_assist`` runs the same CLI as the ``dealer-assist`` script."""

from dealer_assist.cli import main

if __name__ == "__main__":
    main()
