"""CHLO's special functions (``chlo.erf``, ``erfc``, ``erf_inv``, ``lgamma``, ``digamma``) computed as
StableHLO's ``chlo-legalize-to-stablehlo`` decomposes them (``ChloLegalizeToStablehlo.cpp``), whole
tensors at a time: the same approximations (Cephes and Eigen rational polynomials for erf and erfc,
Giles' polynomials for erf_inv, Lanczos' approximation with g = 7 for lgamma and digamma), evaluated in
the element type, narrower types than f32 computed in f32 and rounded back.
"""
from __future__ import annotations

import math

import numpy as np

from shardy_py.interpreter.evaluator import InterpretError, handler, result_element
from shardy_py.interpreter.values import bit_width, dtype_of, is_float


def _poly(x: np.ndarray, coefficients) -> np.ndarray:
    """Horner's rule, highest power first, in ``x``'s dtype."""
    t = x.dtype.type
    out = np.full_like(x, t(coefficients[0]))
    for c in coefficients[1:]:
        out = out * x + t(c)
    return out


# -- erf and erfc --------------------------------------------------------------------------------
_ERF_T64 = (9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3,
            7.00332514112805075473e3, 5.55923013010394962768e4)
_ERF_U64 = (1.0, 3.35617141647503099647e1, 5.21357949780152679795e2, 4.59432382970980127987e3,
            2.26290000613890934246e4, 4.92673942608635921086e4)
_ERFC_P64 = (2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
             4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
             9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2)
_ERFC_Q64 = (1.0, 1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
             9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
             1.65666309194161350182e3, 5.57535340817727675546e2)
_ERFC_R64 = (5.64189583547755073984e-1, 1.27536670759978104416e0, 5.01905042251180477414e0,
             6.16021097993053585195e0, 7.40974269950448939160e0, 2.97886665372100240670e0)
_ERFC_S64 = (1.0, 2.26052863220117276590e0, 9.39603524938001434673e0, 1.20489539808096656605e1,
             1.70814450747565897222e1, 9.60896809063285878198e0, 3.36907645100081516050e0)
_ERF_T32 = (7.853861353153693e-5, -8.010193625184903e-4, 5.188327685732524e-3, -2.685381193529856e-2,
            1.128358514861418e-1, -3.761262582423300e-1, 1.128379165726710e0)
_ERFC_P32 = (2.326819970068386e-2, -1.387039388740657e-1, 3.687424674597105e-1, -5.824733027278666e-1,
             6.210004621745983e-1, -4.944515323274145e-1, 3.404879937665872e-1, -2.741127028184656e-1,
             5.638259427386472e-1)
_ERFC_R32 = (-1.047766399936249e1, 1.297719955372516e1, -7.495518717768503e0, 2.921019019210786e0,
             -1.015265279202700e0, 4.218463358204948e-1, -2.820767439740514e-1, 5.641895067754075e-1)
_ERF_ALPHA32 = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06, -5.69250639462346e-05,
                -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02)
_ERF_BETA32 = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03, -7.37332916720468e-03,
               -1.42647390514189e-02)


def _erfc_large_f64(x: np.ndarray) -> np.ndarray:
    """erfc for |x| >= 1 (f64): exp(-x^2) P/Q below 8, R/S above; 2 - erfc(-x) for negative x."""
    z = -(x * x)
    exp_z = np.exp(z)
    a = np.abs(x)
    small = exp_z * _poly(a, _ERFC_P64) / _poly(a, _ERFC_Q64)
    large = exp_z * _poly(a, _ERFC_R64) / _poly(a, _ERFC_S64)
    approx = np.where(z < -7.09782712893383996843e2, 0.0, np.where(a < 8.0, small, large))
    return np.where(x < 0, 2.0 - approx, approx)


def _erf_small_f64(x: np.ndarray) -> np.ndarray:
    xx = x * x
    return x * _poly(xx, _ERF_T64) / _poly(xx, _ERF_U64)


def _erfc_large_f32(x: np.ndarray) -> np.ndarray:
    one, two = np.float32(1), np.float32(2)
    xx = x * x
    z = -xx
    a = np.abs(x)
    r = one / xx
    poly = np.where(a < two, _poly(r, _ERFC_P32), _poly(r, _ERFC_R32))
    approx = np.exp(z) * (one / a) * poly
    approx = np.where(z < np.float32(-88.72283905206835), np.float32(0), approx)
    return np.where(x < 0, two - approx, approx)


def _erf_small_f32(x: np.ndarray) -> np.ndarray:
    return x * _poly(x * x, _ERF_T32)


def _erf_f32(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, np.float32(-4), np.float32(4))
    xx = x * x
    return np.clip(x * _poly(xx, _ERF_ALPHA32) / _poly(xx, _ERF_BETA32), np.float32(-1), np.float32(1))


def erf(x: np.ndarray) -> np.ndarray:
    """erf of an f32 or f64 array."""
    if x.dtype == np.float64:
        return np.where(np.abs(x) < 1.0, _erf_small_f64(x), 1.0 - _erfc_large_f64(x))
    return _erf_f32(x)


def erfc(x: np.ndarray) -> np.ndarray:
    """erfc of an f32 or f64 array."""
    if x.dtype == np.float64:
        return np.where(np.abs(x) < 1.0, 1.0 - _erf_small_f64(x), _erfc_large_f64(x))
    return np.where(np.abs(x) < np.float32(1), np.float32(1) - _erf_small_f32(x), _erfc_large_f32(x))


# -- erf_inv -------------------------------------------------------------------------------------
_ERFINV_LT5 = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
               -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_GE5 = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
               0.00943887047, 1.00167406, 2.83297682)
_ERFINV_LT625 = (-3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
                 1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
                 6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
                 2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
                 1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
                 4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
                 0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
                 0.24015818242558961693, 1.6536545626831027356)
_ERFINV_LT16 = (2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
                1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
                2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
                6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
                0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
                -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
                3.0838856104922207635)
_ERFINV_GE16 = (-2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
                -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
                2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
                -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
                7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
                1.0103004648645343977, 4.8499064014085844221)


def _ends_infinite(x: np.ndarray, result: np.ndarray) -> np.ndarray:
    """erf_inv(+-1) = +-inf (the polynomial is indeterminate there)."""
    return np.where(np.abs(x) == 1, x * x.dtype.type(np.inf), result)


def erf_inv(x: np.ndarray) -> np.ndarray:
    """erf_inv of an f32 or f64 array (Giles' single- and double-precision polynomials)."""
    w = -np.log1p(x * -x)
    if x.dtype == np.float32:
        t = np.float32
        lt = w < t(5)
        w = np.where(lt, w - t(2.5), np.sqrt(w) - t(3))
        p = np.where(lt, t(_ERFINV_LT5[0]), t(_ERFINV_GE5[0]))
        for a, b in zip(_ERFINV_LT5[1:], _ERFINV_GE5[1:], strict=True):
            p = np.where(lt, t(a), t(b)) + p * w
        return _ends_infinite(x, p * x)
    lt625, lt16 = w < 6.25, w < 16.0
    w = np.where(lt625, w - 3.125, np.sqrt(w) - np.where(lt16, 3.25, 5.0))

    def coefficient(i: int) -> np.ndarray:
        c = np.float64(_ERFINV_LT625[i])
        if i < 19:
            c = np.where(lt625, c, _ERFINV_LT16[i])
        if i < 17:
            c = np.where(lt16, c, _ERFINV_GE16[i])
        return c

    p = coefficient(0) + np.zeros_like(x)
    for i in range(1, 17):
        p = coefficient(i) + p * w
    for i in range(17, 19):
        p = np.where(lt16, coefficient(i) + p * w, p)
    for i in range(19, 23):
        p = np.where(lt625, coefficient(i) + p * w, p)
    return _ends_infinite(x, p * x)


# -- lgamma and digamma (Lanczos, g = 7, n = 9) --------------------------------------------------
_LANCZOS_G = 7.0
_LANCZOS_BASE = 0.99999999999980993227684700473478
_LANCZOS = (676.520368121885098567009190444019, -1259.13921672240287047156078755283, 771.3234287776530788486528258894,
            -176.61502916214059906584551354, 12.507343278686904814458936853, -0.13857109526572011689554707,
            9.984369578019570859563e-6, 1.50563273514931155834e-7)


def _lanczos(x: np.ndarray):
    """(reflect, z, a, a', t, log t) of the Lanczos approximation at ``x``."""
    t_ = x.dtype.type
    reflect = x < t_(0.5)
    z = np.where(reflect, -x, x - t_(1))
    a = np.full_like(x, t_(_LANCZOS_BASE))
    a_prime = np.zeros_like(x)
    for i, c in enumerate(_LANCZOS):
        zk = z + t_(i + 1)
        a_prime = a_prime - t_(c) / (zk * zk)
        a = a + t_(c) / zk
    g_half = t_(_LANCZOS_G + 0.5)
    t = g_half + z
    log_t = t_(math.log(_LANCZOS_G + 0.5)) + np.log1p(z / g_half)
    return reflect, z, a, a_prime, t, log_t


def lgamma(x: np.ndarray) -> np.ndarray:
    """log |gamma(x)| of an f32 or f64 array (reflection below 1/2, +inf at the infinities)."""
    t_ = x.dtype.type
    reflect, z, a, _, t, log_t = _lanczos(x)
    value = (t_((math.log(2) + math.log(math.pi)) / 2) + (z + t_(0.5) - t / log_t) * log_t) + np.log(a)
    ax = np.abs(x)
    frac = ax - np.floor(ax)
    frac = np.where(t_(0.5) < frac, t_(1) - frac, frac)
    denominator = np.log(np.sin(t_(math.pi) * frac))
    reflected = (t_(math.log(math.pi)) - denominator) - value
    reflected = np.where(np.isfinite(denominator), reflected, -denominator)
    value = np.where(reflect, reflected, value)
    return np.where(np.isinf(x), t_(np.inf), value)


def digamma(x: np.ndarray) -> np.ndarray:
    """digamma of an f32 or f64 array (reflection below 1/2; -inf at 0 and NaN at the poles -1, -2, ...,
    as jaxlib 0.12's decomposition gives them: the one at STABLEHLO_COMMIT gives NaN at 0 too)."""
    t_ = x.dtype.type
    reflect, _, a, a_prime, t, log_t = _lanczos(x)
    value = (log_t + a_prime / a) - t_(_LANCZOS_G) / t
    reduced = x + np.abs(np.floor(x + t_(0.5)))
    angle = t_(math.pi) * reduced
    reflected = value - t_(math.pi) * np.cos(angle) / np.sin(angle)
    value = np.where(reflect, reflected, value)
    value = np.where((x < 0) & (x == np.floor(x)), t_(np.nan), value)
    return np.where(x == 0, t_(-np.inf), value)


_FUNCTIONS = {"chlo.erf": erf, "chlo.erfc": erfc, "chlo.erf_inv": erf_inv, "chlo.lgamma": lgamma,
              "chlo.digamma": digamma}


@handler(*_FUNCTIONS)
def _special(ev, op, args):
    name = result_element(op)
    if not is_float(name) or bit_width(name) > 64:
        raise InterpretError(f"{op.name} on {name} is not supported")
    x = args[0]
    wide = x.astype(np.float32) if bit_width(name) < 32 else x
    with np.errstate(all="ignore"):
        out = _FUNCTIONS[op.name](wide)
    return [np.asarray(out).astype(dtype_of(name))]
