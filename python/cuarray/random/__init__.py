"""cuarray.random: NumPy's Generator API (default_rng) and legacy RandomState API on a Philox4x32-10
counter-based generator whose kernels are cuarray's own."""
from cuarray.random._generator import Generator, Philox, default_rng  # noqa: F401
from cuarray.random._legacy import (  # noqa: F401
    RandomState, get_random_state, reset_states, seed, set_random_state)
from cuarray.random._legacy import (  # noqa: F401 - module functions on get_random_state()
    beta, binomial, chisquare, choice, dirichlet, exponential, gamma, geometric, gumbel, hypergeometric, laplace,
    logistic, lognormal, multinomial, multivariate_normal, normal, permutation, poisson, rand, randint, randn,
    random, random_integers, random_sample, ranf, sample, shuffle, standard_exponential, standard_gamma,
    standard_normal, uniform)
