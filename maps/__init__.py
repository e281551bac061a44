"""The shipped maps. A package only so that the installed game finds them (see setup.py)."""
