-- wrk's script for the fleet loads (fleet-load.sh, rounds.sh): the demo app's id and the
-- token those scripts start `regctl serve` with.
-- Each request a device never seen before, as a fleet installing the app.
local counter = 0
-- wrk seeds Lua's random numbers the same way each time: the clock keeps each run's fleet new.
local thread_id = tostring(os.time()) .. "-" .. tostring(math.random(100000, 999999))
local template = '{"app_Version":"1.0","attributes":[{"key":"Tier","value":"gold"}],"dST":false,' ..
  '"deviceID":"%s","etAppId":"995k5k1j-162l-4n5m-j4lo-jl5mmnk14n47","hwid":"Google Pixel 8","locale":"en_US",' ..
  '"location_Enabled":false,"platform":"Android","platform_Version":"14",' ..
  '"proximity_Enabled":false,"push_Enabled":true,"quietPushEnabled":false,' ..
  '"registrationDateUtc":"2026-11-22T10:00:00.000Z","sdk_Version":"10.0.0","signedString":null,' ..
  '"tags":["ALL","ANDROID"],"timeZone":"0","uuid":"%s"}'
local headers = {
  ["Content-Type"] = "application/json; charset=utf-8",
  ["Authorization"] = "Bearer load-token-0123456789",
  ["User-Agent"] = "MarketingCloudSdk/10.0.0 (Android 14; en_US; Google/Pixel 8) com.example.app/1.0",
}
request = function()
  counter = counter + 1
  local id = "FLEET-" .. thread_id .. "-" .. counter
  return wrk.format("POST", "/device/v1/registration", headers, string.format(template, id, id))
end
