"""Settings for the whole suite: property tests have no time limit per example (time belongs in
benchmarks; a busy machine must not fail a test that checks answers)."""
from hypothesis import settings

settings.register_profile("escarmouche", deadline=None)
settings.load_profile("escarmouche")
