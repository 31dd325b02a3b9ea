/**
 * {@code bin/am2j apps-matrix} ({@link org.am2j.perf.apps.AppsMatrix}): the Split-C applications of the model paper
 * (3D FFT, CON, EM3D) in the configurations of its Tables 5 and 6 that emulated nodes on one machine can host, at a
 * chosen rank count or at the paper's scale (8-way SMP, Clump of 4 nodes of 8, NOW of 32), with the paper's figures
 * beside ours, the ratios between configurations, the messages per rank, Table 4 beside the paper's with every
 * difference explained, Table 6's shape and a bar chart.
 */
package org.am2j.perf.apps;
