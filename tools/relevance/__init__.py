"""Relevance benchmark: labeled queries over the project's fixture corpus, scored per ranking method and category."""
