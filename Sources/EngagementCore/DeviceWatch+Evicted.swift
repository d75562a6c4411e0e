extension DeviceWatch {
  /// Devices dropped for `deviceLimit`, held to be let go by whoever takes them. Under a
  /// fleet every registration drops the device seen longest ago, whose memory is cold: its
  /// many frees cost more than the rest of the watch's work, and made on the server's actor
  /// they held up every request waiting for it. A front takes them with its answer and lets
  /// them go after the actor is released (`LocalEngagementServer.receiveAll(taking:)`).
  public struct Evicted: Sendable {
    /// At most this many wait for a taker; past it they are let go where they are dropped.
    static let held = 64
    var devices: [Device] = []
  }

  /// The devices dropped since the last call, to be let go by the caller.
  public mutating func takeEvicted() -> Evicted {
    var taken = Evicted()
    swap(&taken, &evicted)
    return taken
  }
}
