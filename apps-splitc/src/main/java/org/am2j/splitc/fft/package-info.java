/**
 * The 3D FFT of the model paper on the Split-C layer: {@link org.am2j.splitc.fft.Fft} (our radix-2 FFT of batches of
 * columns) and {@link org.am2j.splitc.fft.Fft3d} (slab decomposition, all-to-all transposes by 4 KiB bulk stores,
 * verification against direct DFT sums and a sequential FFT).
 */
package org.am2j.splitc.fft;
