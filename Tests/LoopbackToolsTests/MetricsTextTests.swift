import LoopbackTools
import Testing

/// `MetricsText` reads a Prometheus text exposition into its samples.
@Suite struct MetricsTextTests {
    @Test("each series with its value, labels as written; comments, blank lines and unreadable values skipped")
    func samples() {
        let m = MetricsText(
            """
            # TYPE widget_clients gauge
            widget_clients 3.0

            widget_errors_total{code="bad_json"} 2
            widget_input_to_frame_seconds_bucket{le="+Inf"} 7
            widget_input_to_frame_seconds_sum 0.0125
            broken line
            """)
        #expect(
            m.samples == [
                "widget_clients": 3, "widget_errors_total{code=\"bad_json\"}": 2,
                "widget_input_to_frame_seconds_bucket{le=\"+Inf\"}": 7, "widget_input_to_frame_seconds_sum": 0.0125,
            ])
        #expect(m["widget_rooms"] == nil)
    }
}
