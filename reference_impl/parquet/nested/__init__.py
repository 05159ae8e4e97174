"""Nested encoding: the Dremel levels (README.md, 'Nested Encoding').

=================  ===========================================================
levels             repetition/definition levels in data pages v1 and v2
shredding          record shredding: nested values -> values + levels
assembly           record assembly: the inverse, validating the levels
=================  ===========================================================
"""
