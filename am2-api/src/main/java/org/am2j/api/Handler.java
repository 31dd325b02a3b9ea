package org.am2j.api;

/**
 * A message handler: an entry of an endpoint's handler table, run by {@link Bundle#poll()} when a message names it.
 * <p>
 * The {@link Token} and the {@link Message} are flyweights valid only until the handler returns: copy what must be
 * kept. A request handler may reply once through its token; a reply handler may neither reply nor request. Handler 0
 * receives returned messages: for it, {@link Message#returnStatus()} says why the message came back.
 */
@FunctionalInterface
public interface Handler
{
    /**
     * @param token   to reply through and to ask who sent the message.
     * @param message arguments and data of the message.
     */
    void onMessage(Token token, Message message);
}
