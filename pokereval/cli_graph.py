"""Moved to :mod:`pokereval.cli.graph` (``pokereval graph``, ``equity --breakdown``);
kept for a release."""
from .cli.graph import (CHART_HEIGHT, CHART_WIDTH, MARKS, STYLES, cmd_graph, register,
                        render_breakdown, render_curve, write_chart)

__all__ = ["register", "render_curve", "render_breakdown", "write_chart", "cmd_graph",
           "CHART_WIDTH", "CHART_HEIGHT", "MARKS", "STYLES"]
