// The KissFFT headers Etude's optional backend uses (Debian: libkissfft-dev).
#ifndef ETUDE_CKISSFFT_SHIM_H
#define ETUDE_CKISSFFT_SHIM_H
#ifndef kiss_fft_scalar
#define kiss_fft_scalar float
#endif
#include <kiss_fft.h>
#include <kiss_fftr.h>
#endif
