"""cuarray.scipy.sparse.csgraph: scipy.sparse.csgraph's traversal, components and shortest paths on the GPU."""
from cuarray.scipy.sparse.csgraph._graph import (  # noqa: F401
    bellman_ford, breadth_first_order, connected_components, dijkstra, shortest_path)
from cuarray.scipy.sparse.csgraph._graph import _negative_cycle_error

NegativeCycleError = _negative_cycle_error()
del _negative_cycle_error

__all__ = ["NegativeCycleError", "bellman_ford", "breadth_first_order", "connected_components", "dijkstra",
           "shortest_path"]
