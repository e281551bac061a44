"""The shipped art and sounds. A package only so that the installed game finds them (see setup.py)."""
