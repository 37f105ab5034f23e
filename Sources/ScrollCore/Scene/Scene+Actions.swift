extension Scene {
    /// The widget that would perform `action`, or why it cannot: no such widget, no such
    /// action on it, or arguments it refuses. Changes nothing, so the server can refuse an
    /// action before recording it.
    @discardableResult
    public func check(_ action: ActionInput) throws(ActionError) -> Widget {
        guard let target = focus(action.widget) else {
            guard let id = action.widget else {
                throw ActionError("no widget named, and none in this scene takes focus")
            }
            throw ActionError(
                "no widget \"\(id)\" in this scene (widgets: \(widgets.map(\.id).joined(separator: ", ")))")
        }
        guard target.actions.contains(action.name) else {
            let has = target.actions.isEmpty ? "none" : target.actions.joined(separator: ", ")
            throw ActionError("no action \"\(action.name)\" on widget \"\(target.id)\" (it has: \(has))")
        }
        try target.check(action)
        return target
    }
}
