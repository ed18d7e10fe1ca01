"""Tests of the deduction engine (qardlab.deduction)."""
