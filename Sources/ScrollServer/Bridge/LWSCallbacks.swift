import CLibWebSockets

/// The C callbacks lws calls, each handing over to the `WebSocketServer` whose context it is
/// (the context's user pointer, or the timer's owner).

func wsCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ len: Int
) -> Int32 {
    guard let wsi, let ctx = lws_get_context(wsi), let owner = lws_context_user(ctx) else { return 0 }
    return Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue().handle(wsi, reason, user, input, len)
}

func httpCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ len: Int
) -> Int32 {
    guard let wsi, let ctx = lws_get_context(wsi), let owner = lws_context_user(ctx) else {
        return lws_callback_http_dummy(wsi, reason, user, input, len)
    }
    return Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue().http.handle(wsi, reason, user, input, len)
}

/// Does nothing: firing is enough to end a wait in lws_service.
func wakeCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {}

func sweepCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = rs_timer_owner(sul) else { return }
    Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue().board.sweep()
}

func leaseCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = rs_timer_owner(sul) else { return }
    Unmanaged<WebSocketServer>.fromOpaque(owner).takeUnretainedValue().board.leaseTick()
}
