// Drives the public Go client (sendtips/qiwi) against a local sandbox: card bill, SBP, Google Pay,
// splits, and signature checks of the notifications the sandbox delivers to a loopback receiver.
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	qiwi "github.com/sendtips/qiwi"
)

func must(err error, what string) {
	if err != nil {
		fmt.Println("FAIL", what, err)
		os.Exit(1)
	}
}

func main() {
	base, site, token, secret := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err, "listen")
	got := make(chan *qiwi.Notify, 16)
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := qiwi.NotifyParseHTTPRequest(secret, w, r)
		if err != nil {
			fmt.Println("FAIL notification", n.Type, err)
			os.Exit(1)
		}
		fmt.Println("ok   notification", n.Type, "signature verified")
		got <- n
	}))
	hook := fmt.Sprintf("http://%s/hook", ln.Addr())
	ctx := context.Background()
	id := fmt.Sprint(time.Now().UnixNano())

	bill := qiwi.New("go-bill-"+id, site, token, base)
	bill.CallbackURL = hook
	must(bill.CardRequest(ctx, 150), "CardRequest")
	fmt.Println("ok   CardRequest payUrl", bill.PayURL, "status", bill.Status.Value)

	sbp := qiwi.New("go-sbp-"+id, site, token, base)
	sbp.CallbackURL = hook
	must(sbp.SBP(ctx, 200, "go client"), "SBP")
	fmt.Println("ok   SBP status", sbp.Status.Value, "qrcId", sbp.Req.SBP.QRCodeID, "payload", sbp.Req.SBP.PayURL)

	gp := qiwi.New("go-gp-"+id, site, token, base)
	gp.CallbackURL = hook
	must(gp.GooglePay(ctx, 300, os.Args[5]), "GooglePay")
	fmt.Println("ok   GooglePay status", gp.Status.Value)

	// a bill with splits: their shares must add up to the amount
	sp := qiwi.New("go-split-"+id, site, token, base)
	sp.Split(qiwi.NewAmountInRubles(100), "partner-1").Split(qiwi.NewAmountInRubles(50), "partner-2")
	must(sp.CardRequest(ctx, 150), "CardRequest with splits")
	fmt.Println("ok   CardRequest with splits", len(sp.Splits), "shares")
	bad := qiwi.New("go-split-bad-"+id, site, token, base)
	bad.Split(qiwi.NewAmountInRubles(100), "partner-1")
	if bad.CardRequest(ctx, 150) == nil {
		fmt.Println("FAIL splits that do not add up to the amount were accepted")
		os.Exit(1)
	}
	fmt.Println("ok   splits that do not add up to the amount: refused")

	select {
	case n := <-got:
		fmt.Println("ok   first notification", n.Type, n.Payment.PaymentID)
	case <-time.After(30 * time.Second):
		fmt.Println("FAIL no notification within 30 s")
		os.Exit(1)
	}
}
