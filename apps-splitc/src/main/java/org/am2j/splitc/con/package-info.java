/**
 * CON of the model paper on the Split-C layer: connected components of a 2D or 3D lattice with a fraction of its
 * edges present ({@link org.am2j.splitc.con.Lattice}), by label propagation with pointer jumping over fine-grained
 * remote gets ({@link org.am2j.splitc.con.Con}), verified against a sequential union-find
 * ({@link org.am2j.splitc.con.SequentialCon}).
 */
package org.am2j.splitc.con;
