// kiss_fft called directly, to time it without Etude's split-complex conversion.
#ifndef ETUDE_BENCH_CKISSFFT_SHIM_H
#define ETUDE_BENCH_CKISSFFT_SHIM_H
#ifndef kiss_fft_scalar
#define kiss_fft_scalar float
#endif
#include <kiss_fft.h>
#include <kiss_fftr.h>
#endif
