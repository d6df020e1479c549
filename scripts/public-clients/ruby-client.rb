# Drives the public Ruby client (OnlinetoursGit/qiwi-kassa) against a local sandbox: bills, captures and refunds
# through the client, and each notification's Signature checked by the client's own Notification#valid?.
$LOAD_PATH.unshift File.join(ENV.fetch("RUBY_CLIENT_DIR"), "lib")
require 'qiwi/kassa'
require 'socket'
require 'net/http'

base, site, token, secret = ARGV
def check(what, ok, detail = nil)
  puts "#{ok ? 'ok  ' : 'FAIL'} #{what} #{detail}"
  exit 1 unless ok
end

server = TCPServer.new('127.0.0.1', 0)
hook = "http://127.0.0.1:#{server.addr[1]}/hook"
received = Queue.new
Thread.new do
  loop do
    c = server.accept
    head = ''
    head += c.gets until head.end_with?("\r\n\r\n")
    len = head[/content-length: *(\d+)/i, 1].to_i
    sig = head[/^signature: *(\S+)/i, 1]
    body = c.read(len)
    c.write "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    c.close
    received << [JSON.parse(body, symbolize_names: true), sig]
  end
end

[[:qiwi, base]].each do |provider, host| # the client's other provider (pay2me) is another service
  api = Qiwi::Kassa::Api.new(secret_key: token, provider: provider, host: host)
  r = api.resources
  id = "rb-#{provider}-#{Time.now.to_i}-#{rand(100000)}"
  bill = r.bills.create(id: id, site_id: site, params: { amount: { currency: 'RUB', value: '10.00' },
    expirationDateTime: (Time.now + 3600).strftime('%Y-%m-%dT%H:%M:%S%:z') })
  check("#{provider} bills.create", bill["status"] && bill["status"]["value"] == "CREATED", bill["payUrl"])
  check("#{provider} bills.status", r.bills.status(id: id, site_id: site)['billId'] == id)
  # a payment of the bill by card, as a payer's page would make it (the client has no payment call)
  uri = URI("#{host}/partner/payin/v1/sites/#{site}/payments/#{id}-p")
  req = Net::HTTP::Put.new(uri, 'Content-Type' => 'application/json', 'Authorization' => "Bearer #{token}")
  req.body = JSON.generate(billId: id, amount: { currency: 'RUB', value: '10.00' }, callbackUrl: hook,
    paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: '12/34', cvv2: '123', holderName: 'RB CLIENT' })
  pay = JSON.parse(Net::HTTP.start(uri.host, uri.port) { |h| h.request(req) }.body)
  check("#{provider} payment (raw PUT)", pay['status']['value'] == 'COMPLETED', pay['status'])
  list = r.bills.payments(id: id, site_id: site)
  check("#{provider} bills.payments", list.is_a?(Array) || list['payments'], list.to_s[0, 120])
  cap = r.captures.create(site_id: site, payment_id: "#{id}-p", capture_id: "#{id}-c", params: { callbackUrl: hook })
  check("#{provider} captures.create", cap['status'] && cap['status']['value'] == 'COMPLETED', cap.to_s[0, 160])
  check("#{provider} captures.status", r.captures.status(site_id: site, payment_id: "#{id}-p", capture_id: "#{id}-c")['captureId'] == "#{id}-c")
  ref = r.refunds.create(site_id: site, payment_id: "#{id}-p", refund_id: "#{id}-r",
                         params: { amount: { currency: "RUB", value: "4.00" }, callbackUrl: hook })
  check("#{provider} refunds.create", ref['status'] && ref['status']['value'] == 'COMPLETED', ref.to_s[0, 160])
  check("#{provider} refunds.status", r.refunds.status(site_id: site, payment_id: "#{id}-p", refund_id: "#{id}-r")['refundId'] == "#{id}-r")
  all = r.refunds.statuses(site_id: site, payment_id: "#{id}-p")
  check("#{provider} refunds.statuses", all.is_a?(Array) && all.length == 1, all.to_s[0, 120])
  bad = r.refunds.create(site_id: site, payment_id: "#{id}-p", refund_id: "#{id}-r2",
                         params: { amount: { currency: 'RUB', value: '400.00' } })
  check("#{provider} refund over the amount: an error answer", bad['errorCode'] || bad['status'].is_a?(Hash), bad.to_s[0, 160])
end

seen = {}
until seen.size >= 3
  data, sig = received.pop
  n = Qiwi::Kassa::Notification.new(data: data)
  check("notification #{data[:type]} signature valid", n.valid?(secret_key: secret, signature: sig))
  seen[data[:type]] = true
end
puts 'ALL OK'
