/**
 * Running the Split-C applications: {@link org.am2j.splitc.app.AppCommand} is {@code bin/am2j app}, which checks the
 * options and runs {@link org.am2j.splitc.app.AppMain} on P ranks through the launcher; each application
 * ({@link org.am2j.splitc.app.SplitCApp}) has presets ({@code paper}: the model paper's Table 4 inputs; {@code small}:
 * seconds on 4 ranks) and explicit parameters, and reports per-phase times, its verification and the messages per
 * rank ({@link org.am2j.splitc.app.RunReport}), as text and as JSON ({@link org.am2j.splitc.app.ReportJson}).
 */
package org.am2j.splitc.app;
