"""Renderers: each reads a Derivation and writes one output format; none computes."""
