/**
 * {@code bin/am2j apps-matrix} ({@link org.am2j.perf.apps.AppsMatrix}): the Split-C applications of the model paper
 * (3D FFT, CON, EM3D) in the configurations of its Tables 5 and 6 that emulated nodes on one machine can host, with
 * the paper's figures beside ours, the ratios between configurations, the messages per rank and a bar chart.
 */
package org.am2j.perf.apps;
