"""Privacy accountant for DP-Embed-Invert: Gaussian noise scale, receipt, noise seed."""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    import numpy as np

Composition = Literal["basic", "zcdp"]
Mechanism = Literal[
    "analytic-gaussian",
    "analytic-gaussian-stdlib",
    "classical-gaussian",
    "zcdp-gaussian",
    "none",
]

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_BISECTION_STEPS = 200
_RELATIVE_TOLERANCE = 1e-13


class PrivacyReceipt(BaseModel):
    """The privacy parameters one rewrite was run under; store it with the output."""

    notion: str = Field(
        description=(
            "'(eps,delta)-DP' (worst case, sensitivity 2C) or "
            "'(eps,delta)-d-privacy, unit=u' (metric DP at distance u); "
            "'none' when no noise was added."
        )
    )
    composition: Composition = Field(
        description="How the document budget is split over the K chunks."
    )
    epsilon: float = Field(description="Document-level epsilon.")
    delta: float = Field(description="Document-level delta.")
    n_chunks: int = Field(ge=0, description="K, the number of noised chunks.")
    epsilon_per_chunk: float = Field(
        description=(
            "The epsilon each chunk alone satisfies at delta_per_chunk: eps/K for "
            "basic composition; for zCDP the epsilon that rho/K-zCDP implies."
        )
    )
    delta_per_chunk: float = Field(
        description="delta/K for basic composition; delta itself for zCDP."
    )
    rho: float | None = Field(
        default=None, description="Document-level zCDP rho (zCDP only)."
    )
    rho_per_chunk: float | None = Field(
        default=None, description="rho/K, each chunk's zCDP budget (zCDP only)."
    )
    sigma: float = Field(ge=0.0, description="Std. dev. of the Gaussian noise added.")
    sensitivity: float = Field(gt=0.0, description="L2 sensitivity: 2C or the unit u.")
    clip: float = Field(gt=0.0, description="L2 norm every embedding is clipped to.")
    metric_unit: float | None = Field(
        default=None, description="The d-privacy unit u, or None for standard DP."
    )
    mechanism: Mechanism = Field(description="How sigma was calibrated.")

    def summary(self) -> str:
        """Render the receipt as one line, like the seed's ``[DP]`` line."""
        return (
            f"[DP] notion={self.notion} composition={self.composition} "
            f"eps_total={self.epsilon:g} delta_total={self.delta:g} "
            f"K={self.n_chunks} eps/chunk={self.epsilon_per_chunk:.4f} "
            f"sigma={self.sigma:.4f} sensitivity={self.sensitivity:g} "
            f"clip={self.clip:g}"
        )


def sensitivity(clip: float, metric_unit: float | None = None) -> float:
    """Return the L2 sensitivity of one clipped embedding.

    Args:
        clip: The L2 norm C every embedding is clipped to.
        metric_unit: The d-privacy unit u; None for standard DP.

    Returns:
        ``2 * clip`` for standard DP (replacing one vector in the C-ball moves it
        by at most the ball's diameter), else ``metric_unit``.

    """
    _require(clip > 0, f"clip must be > 0, got {clip}")
    if metric_unit is None:
        return 2.0 * clip
    _require(metric_unit > 0, f"metric_unit must be > 0, got {metric_unit}")
    return float(metric_unit)


def classical_gaussian_sigma(epsilon: float, delta: float, sens: float) -> float:
    """Return the classical Gaussian-mechanism scale ``sqrt(2 ln(1.25/δ)) Δ / ε``.

    The bound is proven only for epsilon < 1 (Dwork & Roth, Thm. A.1). Above
    roughly epsilon = 8 it falls *below* the exact analytic scale, so on its own
    it is not a valid calibration there; ``gaussian_sigma`` checks it.
    """
    _check_budget(epsilon, delta, sens)
    return math.sqrt(2.0 * math.log(1.25 / delta)) * sens / epsilon


def analytic_gaussian_sigma(epsilon: float, delta: float, sens: float) -> float:
    """Return the smallest sigma for which Gaussian noise is (ε, δ)-DP, via scipy.

    Balle & Wang (2018), Theorem 8: noise N(0, σ²I) on a query of L2
    sensitivity Δ is (ε, δ)-DP iff
    Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) ≤ δ. The left side falls as σ grows,
    so bisection finds the boundary to machine precision.

    Raises:
        ImportError: If scipy is not installed.

    """
    from scipy.special import log_ndtr, ndtr

    def log_cdf(x: float) -> float:
        return float(log_ndtr(x))

    def cdf(x: float) -> float:
        return float(ndtr(x))

    return _bisect_sigma(epsilon, delta, sens, cdf, log_cdf)


def gaussian_sigma(
    epsilon: float, delta: float, sens: float
) -> tuple[float, Mechanism]:
    """Calibrate Gaussian noise for one (ε, δ)-DP release of sensitivity Δ.

    Uses the exact analytic scale when scipy is installed. Without scipy it
    falls back to the classical bound, but only after checking that bound
    against the exact privacy condition (computed with ``math.erfc``): where
    the classical bound is too small (large ε) the exact scale is bisected
    with the standard library instead, so the fallback never under-noises.

    Returns:
        The noise scale and the name of the calibration used.

    """
    _check_budget(epsilon, delta, sens)
    try:
        return analytic_gaussian_sigma(epsilon, delta, sens), "analytic-gaussian"
    except ImportError:
        pass
    classical = classical_gaussian_sigma(epsilon, delta, sens)
    if _privacy_loss_delta(classical, epsilon, sens, _std_cdf, _std_log_cdf) <= delta:
        return classical, "classical-gaussian"
    exact = _bisect_sigma(epsilon, delta, sens, _std_cdf, _std_log_cdf)
    return exact, "analytic-gaussian-stdlib"


def zcdp_rho(epsilon: float, delta: float) -> float:
    """Return the largest rho such that rho-zCDP implies (ε, δ)-DP.

    Solves ε = ρ + 2 sqrt(ρ ln(1/δ)) (Bun & Steinke 2016, Prop. 1.3), giving
    ρ = (sqrt(ε + ln(1/δ)) − sqrt(ln(1/δ)))².
    """
    _check_budget(epsilon, delta, 1.0)
    log_inv_delta = math.log(1.0 / delta)
    return (math.sqrt(epsilon + log_inv_delta) - math.sqrt(log_inv_delta)) ** 2


def zcdp_epsilon(rho: float, delta: float) -> float:
    """Return the ε that rho-zCDP implies at δ: ρ + 2 sqrt(ρ ln(1/δ))."""
    _require(rho > 0, f"rho must be > 0, got {rho}")
    _require(0 < delta < 1, f"delta must be in (0, 1), got {delta}")
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def zcdp_sigma(rho: float, sens: float) -> float:
    """Return the Gaussian scale that makes one release rho-zCDP: Δ / sqrt(2ρ)."""
    _require(rho > 0, f"rho must be > 0, got {rho}")
    _require(sens > 0, f"sensitivity must be > 0, got {sens}")
    return sens / math.sqrt(2.0 * rho)


def privacy_receipt(
    *,
    epsilon: float,
    delta: float,
    n_chunks: int,
    clip: float,
    composition: Composition = "basic",
    metric_unit: float | None = None,
) -> PrivacyReceipt:
    """Compute the per-chunk noise scale for a document and describe it.

    Args:
        epsilon: Document-level epsilon; ``math.inf`` means no noise (no claim).
        delta: Document-level delta in (0, 1).
        n_chunks: K, the number of chunks that go through the mechanism. With
            K = 0 nothing is released, and sigma is computed as for K = 1.
        clip: The L2 norm C every embedding is clipped to.
        composition: ``"basic"`` (ε/K, δ/K per chunk) or ``"zcdp"`` (ρ/K).
        metric_unit: None for standard DP at sensitivity 2C; a unit u > 0 for
            (ε, δ)-d-privacy at sensitivity u, a different and weaker notion.

    Returns:
        The receipt, with sigma set to the noise scale every chunk gets.

    """
    _require(n_chunks >= 0, f"n_chunks must be >= 0, got {n_chunks}")
    _require(composition in ("basic", "zcdp"), f"unknown composition {composition}")
    sens = sensitivity(clip, metric_unit)
    notion = (
        "(eps,delta)-DP"
        if metric_unit is None
        else f"(eps,delta)-d-privacy, unit={metric_unit:g}"
    )
    rho: float | None = None
    rho_chunk: float | None = None
    mechanism: Mechanism
    # K = 0 releases nothing; a K of 1 keeps the arithmetic defined.
    k = max(n_chunks, 1)
    if epsilon != math.inf:
        _check_budget(epsilon, delta, sens)
    if epsilon == math.inf:
        _require(0 < delta < 1, f"delta must be in (0, 1), got {delta}")
        notion, mechanism = "none", "none"
        eps_chunk, delta_chunk, sigma = math.inf, delta, 0.0
    elif composition == "basic":
        eps_chunk, delta_chunk = epsilon / k, delta / k
        sigma, mechanism = gaussian_sigma(eps_chunk, delta_chunk, sens)
    else:
        rho = zcdp_rho(epsilon, delta)
        rho_chunk = rho / k
        eps_chunk, delta_chunk = zcdp_epsilon(rho_chunk, delta), delta
        sigma, mechanism = zcdp_sigma(rho_chunk, sens), "zcdp-gaussian"
    return PrivacyReceipt(
        notion=notion,
        composition=composition,
        epsilon=epsilon,
        delta=delta,
        n_chunks=n_chunks,
        epsilon_per_chunk=eps_chunk,
        delta_per_chunk=delta_chunk,
        rho=rho,
        rho_per_chunk=rho_chunk,
        sigma=sigma,
        sensitivity=sens,
        clip=clip,
        metric_unit=metric_unit,
        mechanism=mechanism,
    )


def _privacy_loss_delta(
    sigma: float,
    epsilon: float,
    sens: float,
    cdf: Callable[[float], float],
    log_cdf: Callable[[float], float],
) -> float:
    """Return the smallest δ for which N(0, σ²) noise is ε-DP at sensitivity Δ."""
    a = sens / (2.0 * sigma)
    b = epsilon * sigma / sens
    # e^ε Φ(−a−b) overflows for large ε; adding logs keeps it finite.
    tail = math.exp(min(epsilon + log_cdf(-a - b), 700.0))
    return cdf(a - b) - tail


def _bisect_sigma(
    epsilon: float,
    delta: float,
    sens: float,
    cdf: Callable[[float], float],
    log_cdf: Callable[[float], float],
) -> float:
    """Bisect, in log space, for the boundary sigma of the Balle-Wang condition."""
    _check_budget(epsilon, delta, sens)

    def private(sigma: float) -> bool:
        return _privacy_loss_delta(sigma, epsilon, sens, cdf, log_cdf) <= delta

    hi = max(classical_gaussian_sigma(epsilon, delta, sens), 1e-12)
    while not private(hi):
        hi *= 2.0
    lo = hi
    while private(lo) and lo > 1e-300:
        lo /= 2.0
    for _ in range(_BISECTION_STEPS):
        mid = math.sqrt(lo * hi)
        if private(mid):
            hi = mid
        else:
            lo = mid
        if hi - lo <= _RELATIVE_TOLERANCE * hi:
            break
    # hi always satisfies the condition, so returning it never under-noises.
    return hi


def _std_cdf(x: float) -> float:
    """Return Φ(x) with the standard library."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _std_log_cdf(x: float) -> float:
    """Return log Φ(x), with an asymptotic tail where erfc underflows."""
    if x > -30.0:
        return math.log(0.5 * math.erfc(-x / math.sqrt(2.0)))
    inv = 1.0 / (x * x)
    series = 1.0 - inv + 3.0 * inv * inv - 15.0 * inv**3
    return -0.5 * x * x - math.log(-x) - _LOG_SQRT_2PI + math.log(series)


def _check_budget(epsilon: float, delta: float, sens: float) -> None:
    _require(
        math.isfinite(epsilon) and epsilon > 0, f"epsilon must be > 0, got {epsilon}"
    )
    _require(0 < delta < 1, f"delta must be in (0, 1), got {delta}")
    _require(sens > 0, f"sensitivity must be > 0, got {sens}")


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def noise_source(seed: int, text: str) -> np.random.Generator | None:
    """Return a per-record noise seed, or None for fresh OS entropy.

    A fixed run seed is mixed with the text's checksum so that two records do
    not receive the same noise vectors.
    """
    if seed < 0:
        return None
    import numpy as np  # here: the command line reads this module for its flags

    return np.random.default_rng([seed, zlib.crc32(text.encode("utf-8"))])
