"""The conformance kit: checks any game for the properties cardcore promises."""
