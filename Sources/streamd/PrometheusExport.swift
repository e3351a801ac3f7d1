import Metrics
import Prometheus
import StreamServer

/// Bootstraps swift-metrics with a swift-prometheus registry and renders it: the one place in the
/// package that chooses a metrics backend (libraries only emit).
///
/// Thread-safety: Sendable; `exposition` may be called from any thread.
struct PrometheusExport: Sendable {
    /// The registry every metric handle made from now on reports to.
    let registry = PrometheusCollectorRegistry()

    /// Makes this export the process's `MetricsSystem`; call once, before the server is made.
    func bootstrap() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.valueHistogramBuckets = ServerMetricNames.buckets
        factory.durationHistogramBuckets = ServerMetricNames.buckets.mapValues { $0.map { Duration.nanoseconds(Int64(($0 * 1e9).rounded())) } }
        MetricsSystem.bootstrap(DescribedMetricsFactory(base: factory, registry: registry))
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}

/// A `PrometheusMetricsFactory` whose metrics carry their HELP line: swift-metrics has no place for
/// one, and Prometheus's linter (`promtool check metrics`) requires it. Handles are made through the
/// registry's API with the help from `ServerMetricNames.help`; buckets and removal are the base
/// factory's.
///
/// Thread-safety: Sendable; swift-metrics calls it from any thread.
struct DescribedMetricsFactory: MetricsFactory {
    /// The factory whose buckets and removal this one uses.
    let base: PrometheusMetricsFactory
    /// The registry handles are made in (the base factory's).
    let registry: PrometheusCollectorRegistry

    /// The label as a full metric name (no unit suffix added) carrying its help text.
    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: ServerMetricNames.help[label] ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        let buckets = base.valueHistogramBuckets[label] ?? base.defaultValueHistogramBuckets
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let buckets = base.durationHistogramBuckets[label] ?? base.defaultDurationHistogramBuckets
        return registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: buckets)
    }

    func destroyCounter(_ handler: any CounterHandler) { base.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { base.destroyFloatingPointCounter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { base.destroyRecorder(handler) }
    func destroyMeter(_ handler: any MeterHandler) { base.destroyMeter(handler) }
    func destroyTimer(_ handler: any TimerHandler) { base.destroyTimer(handler) }
}
