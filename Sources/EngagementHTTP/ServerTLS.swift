import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL

/// The certificate and key (PEM files) the local server answers https with (`--tls-cert`,
/// `--tls-key`). Read when the server starts; a file that cannot be used stops the start with
/// its name and the reason.
public struct ServerTLS: Sendable {
  public var certificatePath: String
  public var keyPath: String

  public init(certificatePath: String, keyPath: String) {
    self.certificatePath = certificatePath
    self.keyPath = keyPath
  }

  public struct Problem: Error, CustomStringConvertible {
    public var description: String
  }

  /// Checks both files now, so a bad one is reported before anything listens.
  public func check() throws(Problem) { _ = try configuration() }

  func configuration() throws(Problem) -> TLSConfiguration {
    let chain: [NIOSSLCertificate]
    do {
      chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
    } catch {
      throw Problem(description: "--tls-cert \(certificatePath): not a PEM certificate (\(error))")
    }
    guard !chain.isEmpty else {
      throw Problem(description: "--tls-cert \(certificatePath): holds no certificate")
    }
    let key: NIOSSLPrivateKey
    do {
      key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
    } catch {
      throw Problem(description: "--tls-key \(keyPath): not a PEM private key (\(error))")
    }
    return TLSConfiguration.makeServerConfiguration(
      certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
  }

  func serverBuilder(_ http1: HTTP1Channel.Configuration) throws -> HTTPServerBuilder {
    try .tls(.http1(configuration: http1), tlsConfiguration: configuration())
  }
}
