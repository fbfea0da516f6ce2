"""cuarray.scipy.spatial: SciPy's spatial algorithms on the GPU (CuPy's cupyx.scipy.spatial)."""
from cuarray.scipy.spatial import distance  # NOQA
from cuarray.scipy.spatial._kdtree import KDTree, cKDTree  # NOQA
from cuarray.scipy.spatial.distance import distance_matrix  # NOQA
# Delaunay triangulation (exact, built on the host; point location on the GPU)
from cuarray.scipy.spatial._delaunay import Delaunay, QhullError  # NOQA
