// The entry point: widget-replay's own error handling (one line on stderr, exit 1 or 2).
WidgetReplay.runAndExit()
