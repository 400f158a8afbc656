"""trainwreck: a field guide to neural-network training failures."""

__version__ = "0.1.0"
