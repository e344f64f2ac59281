"""Pressroom: a content repository server speaking the Ibexa / eZ Platform REST API v2."""

__version__ = "0.1.0"
