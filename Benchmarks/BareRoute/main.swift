// The baseline for the load figure: a Hummingbird route that reads the body and answers 201,
// doing nothing else. `Benchmarks/load.sh` measures it beside `regctl serve` in the same run.
import Hummingbird
import Logging

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 18_081
let router = Router()
router.post("device/v1/registration") { request, _ -> Response in
  var request = request
  _ = try await request.collectBody(upTo: 1 << 20)
  return Response(status: .created)
}
var logger = Logger(label: "bare-route")
logger.logLevel = .error
let app = Application(
  router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
  logger: logger)
try await app.runService()
