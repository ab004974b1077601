package runtime

import (
	"context"
	"reflect"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// readInputs is the event loop of a task whose head has inputs.
func (e *executor) readInputs(ctx context.Context, n *Node, inst int, op Operator, r *router, cp *taskCheckpoint) error {
	inputs := e.inbound[n.ID][inst]
	nIn := len(inputs)
	chans := make([]chan event, nIn)
	for i, c := range inputs {
		chans[i] = c.c
	}
	producers := make([]int, nIn)
	for i, edge := range n.Inputs {
		switch edge.Part {
		case opspec.Forward:
			producers[i] = 1
		default:
			producers[i] = edge.From.Parallelism
		}
	}
	wms := make([][]int64, nIn)
	idle := make([][]bool, nIn)
	inputIdle := make([]bool, nIn)
	combined := make([]int64, nIn)
	ended := make([]int, nIn)
	for i := range wms {
		wms[i] = make([]int64, producers[i])
		idle[i] = make([]bool, producers[i])
		for k := range wms[i] {
			wms[i][k] = MinWatermark
		}
		combined[i] = MinWatermark
	}
	idler, _ := op.(InputIdler)
	taskIdle := false
	// advance recomputes input in's watermark as the minimum over its
	// active producers (Flink's StatusWatermarkValve); once every producer
	// is idle, the maximum over all of them is flushed, as the valve does.
	advance := func(in int) error {
		low, any := MaxWatermark, false
		for k, w := range wms[in] {
			if idle[in][k] {
				continue
			}
			any = true
			if w < low {
				low = w
			}
		}
		if !any {
			low = MinWatermark
			for _, w := range wms[in] {
				low = max(low, w)
			}
			any = len(wms[in]) > 0
		}
		if any && low > combined[in] {
			combined[in] = low
			return op.ProcessWatermark(in, low)
		}
		return nil
	}
	// status updates the idleness of input in and of the whole task.
	status := func(in int) error {
		all := true
		for _, x := range idle[in] {
			if !x {
				all = false
			}
		}
		if all != inputIdle[in] {
			inputIdle[in] = all
			if idler != nil {
				if err := idler.SetInputIdle(in, all); err != nil {
					return err
				}
			}
		}
		every := true
		for _, x := range inputIdle {
			if !x {
				every = false
			}
		}
		if every != taskIdle {
			taskIdle = every
			if r != nil {
				r.setIdle(every)
			}
		}
		return nil
	}
	open := nIn
	selector, _ := op.(InputSelector)
	cases := make([]reflect.SelectCase, nIn+2)
	cases[nIn] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())}
	m := n.metrics
	// processing-time timers of the head operator
	timers := newTaskTimers(op, e.cfg.clock())
	defer timers.stop()
	al := newAligner(producers, e.cfg.Checkpoint.Mode == ExactlyOnce)
	for open > 0 {
		if err := timers.arm(); err != nil {
			return err
		}
		var in int
		var ev event
		want := -1
		if selector != nil {
			want = selector.NextInput()
		}
		replayed := false
		if len(al.replay) > 0 {
			// events held back while barriers aligned come first
			in, ev = al.replay[0].in, al.replay[0].ev
			al.replay = al.replay[1:]
			replayed = true
		} else if want >= 0 && ended[want] < producers[want] && timers.c == nil {
			select {
			case ev = <-chans[want]:
				in = want
			case <-ctx.Done():
				return ctx.Err()
			}
		} else if nIn == 1 && timers.c == nil {
			select {
			case ev = <-chans[0]:
			case <-ctx.Done():
				return ctx.Err()
			}
		} else {
			for i, c := range chans {
				if ended[i] == producers[i] || (want >= 0 && i != want && ended[want] < producers[want]) {
					cases[i] = reflect.SelectCase{Dir: reflect.SelectRecv}
				} else {
					cases[i] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c)}
				}
			}
			cases[nIn+1] = reflect.SelectCase{Dir: reflect.SelectRecv}
			if timers.c != nil {
				cases[nIn+1].Chan = reflect.ValueOf(timers.c)
			}
			chosen, v, _ := reflect.Select(cases)
			if chosen == nIn {
				return ctx.Err()
			}
			if chosen == nIn+1 {
				if err := timers.fire(); err != nil {
					return err
				}
				continue
			}
			in = chosen
			ev = v.Interface().(event)
		}
		if al.holds(in, ev.producer) {
			// its barrier has arrived: the event is after the checkpoint
			if !replayed {
				inputs[in].received(&ev)
				ev.size = 0
			}
			al.held = append(al.held, heldEvent{in, ev})
			continue
		}
		if ev.kind == evBarrier {
			if cp == nil {
				continue
			}
			if done := al.barrier(in, ev.producer, ev.wm); done != 0 {
				if err := al.complete(cp, done); err != nil {
					return err
				}
			}
			continue
		}
		switch ev.kind {
		case evData:
			if err := processData(m, op, in, inputs[in], &ev); err != nil {
				return err
			}
		case evIdle, evActive:
			idle[in][ev.producer] = ev.kind == evIdle
			if err := status(in); err != nil {
				return err
			}
			if err := advance(in); err != nil {
				return err
			}
		case evWatermark, evEnd:
			wm := ev.wm
			if ev.kind == evEnd {
				wm = MaxWatermark
				if idle[in][ev.producer] {
					idle[in][ev.producer] = false
					if err := status(in); err != nil {
						return err
					}
				}
			}
			if wm > wms[in][ev.producer] {
				wms[in][ev.producer] = wm
			}
			if err := advance(in); err != nil {
				return err
			}
			if ev.kind == evEnd {
				ended[in]++
				if ended[in] == producers[in] {
					open--
					if pool := inputs[in].pool; pool != nil {
						if err := drainKeyGroups(ctx, pool, inst, in, op, m); err != nil {
							return err
						}
					}
					if err := op.EndInput(in); err != nil {
						return err
					}
				}
				// an ended producer sends no more barriers
				if done := al.ended(in, ev.producer); done != 0 && cp != nil {
					if err := al.complete(cp, done); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// taskTimers drives the processing-time timers of a task's head operator.
type taskTimers struct {
	op     ProcessingTimeOperator
	clock  Clock
	c      <-chan time.Time
	cancel func()
	at     int64
}

func newTaskTimers(op Operator, clock Clock) *taskTimers {
	t := &taskTimers{clock: clock, at: -1}
	t.op, _ = op.(ProcessingTimeOperator)
	return t
}

// arm (re)starts the timer for the operator's next processing time.
func (t *taskTimers) arm() error {
	if t.op == nil {
		return nil
	}
	next, ok := t.op.NextProcessingTime()
	if !ok {
		t.stop()
		return nil
	}
	if t.c != nil && next == t.at {
		return nil
	}
	t.stop()
	t.at = next
	t.c, t.cancel = t.clock.At(time.UnixMilli(next))
	return nil
}

func (t *taskTimers) fire() error {
	t.c, t.cancel, t.at = nil, nil, -1
	return t.op.OnProcessingTime(t.clock.Now().UnixMilli())
}

func (t *taskTimers) stop() {
	if t.cancel != nil {
		t.cancel()
	}
	t.c, t.cancel, t.at = nil, nil, -1
}
