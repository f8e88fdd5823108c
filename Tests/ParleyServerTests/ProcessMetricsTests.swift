import ParleyChannels
import ParleyNet
import Testing

@testable import ParleyServer

/// The process figures, build info, histogram exposition and the text format's escaping.
@Suite struct ProcessMetricsTests {
    @Test func statFieldsAreCountedFromAfterTheCommandName() throws {
        // A command name with a space and a parenthesis, as a process may set it.
        let line = "4242 (par ley) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 125 0 0 20 0 7 0 123456 987654321 2048 18446744073709551615"
        let fields = try #require(ProcessStatistics.StatFields(line))
        #expect(fields.cpuTicks == 375)
        #expect(fields.threads == 7)
        #expect(fields.startTicks == 123456)
        #expect(fields.virtualBytes == 987654321)
        #expect(fields.residentPages == 2048)
        #expect(ProcessStatistics.StatFields("no parenthesis") == nil)
        #expect(ProcessStatistics.bootTime(procStat: "cpu  1 2 3\nintr 5\nbtime 1700000000\nprocesses 9\n") == 1_700_000_000)
    }

    @Test func processFamiliesUseTheClientLibraryNamesAndUnits() {
        let statistics = ProcessStatistics(
            openDescriptors: 12, descriptorLimit: 1024, residentBytes: 8_388_608, virtualBytes: 1 << 30,
            cpuTicks: 375, threads: 7, startTicks: 123456)
        let text = statistics.render(ticksPerSecond: 100, bootTime: 1_700_000_000)
        #expect(text.contains("# TYPE process_open_fds gauge\nprocess_open_fds 12\n"))
        #expect(text.contains("process_max_fds 1024\n"))
        #expect(text.contains("process_resident_memory_bytes 8388608\n"))
        #expect(text.contains("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 3.75\n"))
        #expect(text.contains("process_start_time_seconds 1700001234.56\n"))
        #expect(text.contains("process_threads 7\n"))
    }

    @Test func theRunningProcessReportsItsOwnFigures() throws {
        let statistics = ProcessStatistics.current()
        #expect((statistics.openDescriptors ?? 0) > 0)
        #expect((statistics.residentBytes ?? 0) > 0)
        #expect((statistics.threads ?? 0) >= 1)
        #expect(statistics.descriptorLimit > 0)
    }

    @Test func buildInfoNamesTheVersionAndCompiler() {
        let text = ParleyVersion.buildInfoMetric()
        #expect(text.contains("parley_build_info{version=\"\(ParleyVersion.string)\",swift=\"\(ParleyVersion.swiftCompiler)\"} 1\n"))
        #expect(ParleyVersion.swiftCompiler.first?.isNumber == true)
    }

    @Test func histogramLinesAreCumulativeWithSumAndCount() {
        let histogram = HTTPRouteLatency.Histogram(
            template: HTTPRouteTemplate(method: "GET", pattern: "/v1/rooms/{room_id}"),
            counts: [3, 0, 2, 1], sumMicroseconds: 2_500_250)
        let text = RouteLatencyMetrics.render([histogram], buckets: LatencyBuckets(bounds: [250, 1_000, 2_500_000]))
        let labels = #"method="GET",route="/v1/rooms/{room_id}""#
        #expect(text.contains("# TYPE parley_http_request_duration_seconds histogram\n"))
        #expect(text.contains("parley_http_request_duration_seconds_bucket{\(labels),le=\"0.00025\"} 3\n"))
        #expect(text.contains("parley_http_request_duration_seconds_bucket{\(labels),le=\"0.001\"} 3\n"))
        #expect(text.contains("parley_http_request_duration_seconds_bucket{\(labels),le=\"2.5\"} 5\n"))
        #expect(text.contains("parley_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} 6\n"))
        #expect(text.contains("parley_http_request_duration_seconds_sum{\(labels)} 2.50025\n"))
        #expect(text.contains("parley_http_request_duration_seconds_count{\(labels)} 6\n"))
    }

    @Test func labelValuesAreEscapedAndDecimalsExact() {
        #expect(PrometheusText.escape(#"a\b"c"# + "\nd") == #"a\\b\"c\nd"#)
        #expect(PrometheusText.escape("plain-id_1") == "plain-id_1")
        #expect(PrometheusText.decimal(0, 1_000_000) == "0")
        #expect(PrometheusText.decimal(100, 1_000_000) == "0.0001")
        #expect(PrometheusText.decimal(10_000_000, 1_000_000) == "10")
        #expect(PrometheusText.decimal(1, 3) == "0.333333")
        #expect(PrometheusText.decimal(-150, 100) == "-1.5")
    }
}
