import Synchronization
import Testing
@testable import Reactive

@Suite struct ScheduledSlotTests {
    @Test func schedulingAgainCancelsThePreviousAction() {
        let slot = ScheduledSlot()
        let first = AnyDisposable()
        let second = AnyDisposable()
        slot.schedule { first }
        slot.schedule { second }
        #expect(first.isDisposed)
        #expect(!second.isDisposed)
        slot.dispose()
        #expect(second.isDisposed)
    }

    @Test func anActionThatReschedulesBeforeItIsStoredKeepsItsSuccessor() {
        let slot = ScheduledSlot()
        let first = AnyDisposable()
        let successor = AnyDisposable()
        // The inner call stands for an action that ran, and scheduled its successor, before the outer
        // call got to store its own disposable.
        slot.schedule {
            slot.schedule { successor }
            return first
        }
        #expect(first.isDisposed)
        #expect(!successor.isDisposed)
        slot.dispose()
        #expect(successor.isDisposed)
    }

    @Test func schedulingAfterDisposalCancelsAtOnce() {
        let slot = ScheduledSlot()
        slot.dispose()
        let late = AnyDisposable()
        slot.schedule { late }
        #expect(late.isDisposed)
    }
}
