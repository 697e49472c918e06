"""Tests of the USI engine client."""
