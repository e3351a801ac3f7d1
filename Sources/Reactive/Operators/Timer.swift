extension SignalProducer where Value == SchedulerTime, Failure == Never {
    /// A producer that sends the scheduler's time every `interval`, starting one interval after it
    /// starts, and never completes; disposing the start stops the timer.
    ///
    /// - Parameters:
    ///   - interval: the time between ticks; must be positive.
    ///   - scheduler: the scheduler whose time is sent, and on which the ticks run.
    ///   - leeway: how late each tick may come so the system can coalesce timers; a tenth of
    ///     the interval unless given.
    public static func timer(
        interval: Duration, on scheduler: any TimeScheduler, leeway: Duration? = nil
    ) -> SignalProducer {
        precondition(interval > .zero, "a timer needs a positive interval")
        return SignalProducer { observer, lifetime in
            lifetime += scheduler.schedule(after: interval, every: interval, leeway: leeway ?? interval / 10) {
                observer.send(value: scheduler.now)
            }
        }
    }
}
