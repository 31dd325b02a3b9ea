/**
 * EM3D of the model paper on the Split-C layer: a bipartite E/H graph over a 3D grid of virtual processors
 * ({@link org.am2j.splitc.em3d.Em3dGraph}), placed on ranks by the naive or good layout
 * ({@link org.am2j.splitc.em3d.Layout}), updated in bulk-synchronous half steps with ghosts fetched by split-phase
 * gets ({@link org.am2j.splitc.em3d.Em3d}), verified bit for bit against a sequential run.
 */
package org.am2j.splitc.em3d;
