"""cuarray.random: NumPy's Generator API (default_rng) and legacy RandomState API on a Philox4x32-10
counter-based generator whose kernels are cuarray's own."""
from cuarray.random._generator import Generator, Philox, Philox4x3210, default_rng  # noqa: F401
from cuarray.random._bit_generator import BitGenerator, MRG32k3a, XORWOW  # noqa: F401
from cuarray.random._legacy import (  # noqa: F401
    RandomState, get_random_state, reset_states, seed, set_random_state)
from cuarray.random._legacy import (  # noqa: F401 - module functions on get_random_state()
    beta, binomial, chisquare, choice, dirichlet, exponential, gamma, geometric, gumbel, hypergeometric, laplace,
    logistic, lognormal, multinomial, multivariate_normal, normal, permutation, poisson, rand, randint, randn,
    random, random_integers, random_sample, ranf, sample, shuffle, standard_exponential, standard_gamma,
    standard_normal, uniform)
from cuarray.random._legacy import (  # noqa: F401 - issue 16's distributions, module functions too
    bytes, f, logseries, negative_binomial, noncentral_chisquare, noncentral_f, pareto, power, rayleigh,
    standard_cauchy, standard_t, triangular, vonmises, wald, weibull, zipf)
