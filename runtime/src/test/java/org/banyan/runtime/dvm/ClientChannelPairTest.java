package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.banyan.core.wire.ClientMessage;
import org.junit.jupiter.api.Test;

/** The in-memory connection a hosted bag's task manager has to its head. */
class ClientChannelPairTest {
    @Test
    void messagesArriveInOrderAndTheEndComesAfterThem() throws Exception {
        ClientChannel[] ends = ClientChannel.pair();
        ends[0].send(new ClientMessage.CancelTasks(List.of(1, 2)));
        ends[0].send(new ClientMessage.StatusRequest());
        ends[0].close();
        assertThat(ends[1].receive()).isEqualTo(new ClientMessage.CancelTasks(List.of(1, 2)));
        assertThat(ends[1].receive()).isInstanceOf(ClientMessage.StatusRequest.class);
        assertThatThrownBy(ends[1]::receive).isInstanceOf(EOFException.class);
        assertThatThrownBy(ends[1]::receive).as("and at every later read").isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> ends[1].send(new ClientMessage.Stop())).isInstanceOf(IOException.class);
    }

    @Test
    void closingAnEndWakesItsOwnBlockedReader() throws Exception {
        ClientChannel[] ends = ClientChannel.pair();
        CompletableFuture<Throwable> reader = CompletableFuture.supplyAsync(() -> {
            try {
                ends[0].receive();
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        Thread.sleep(100);
        ends[0].close();
        assertThat(reader.get(5, TimeUnit.SECONDS)).isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> ends[0].send(new ClientMessage.Stop())).isInstanceOf(IOException.class);
    }
}
