"""The pages, tapped through the test client as a phone would."""
