// Package godata prints a Go value as a readable Go composite literal (one
// field per line, zero fields left out, strings raw-quoted where they can be),
// for generators that turn data files into Go source so that hook processes
// need not parse them at start-up.
package godata

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Writer prints values whose types live in Package (named without a qualifier)
// or in other packages (qualified by their package name and imported).
type Writer struct {
	// Package is the import path of the package the output is compiled in.
	Package string
	// Share lists types whose values, when the same literal occurs more than
	// once across Literal calls, are printed once as a function built on first
	// use (see SharedDecls) and referenced by name.
	Share   map[reflect.Type]bool
	imports map[string]string // path → name

	counting bool
	counts   map[string]int
	shared   map[string]string // literal → function name
	decls    []string
}

// Count renders v only to count its shareable parts; call it for every value
// before the Literal calls that print them.
func (w *Writer) Count(v any) error {
	w.counting = true
	defer func() { w.counting = false }()
	var b strings.Builder
	return w.write(&b, reflect.ValueOf(v), 0, true)
}

// SharedDecls returns the declarations of the shared values the Literal calls
// referenced.
// The shared values are built on first use and kept in sharedValues, with no
// cost at process start; callers build them from one goroutine at a time.
func (w *Writer) SharedDecls() string {
	if len(w.decls) == 0 {
		return ""
	}
	return fmt.Sprintf("// sharedValues holds the shared values once built.\nvar sharedValues [%d]any\n\n", len(w.decls)) + strings.Join(w.decls, "\n")
}

// Literal returns v as a Go expression. Pointers to structs print as &T{…};
// unexported fields are skipped; maps print in key order.
func (w *Writer) Literal(v any) (string, error) {
	var b strings.Builder
	if err := w.write(&b, reflect.ValueOf(v), 0, true); err != nil {
		return "", err
	}
	return strings.TrimPrefix(b.String(), "&"), nil
}

// Imports returns the import block the printed literals need.
func (w *Writer) Imports() string {
	if len(w.imports) == 0 {
		return ""
	}
	paths := make([]string, 0, len(w.imports))
	for p := range w.imports {
		paths = append(paths, p)
	}
	// Standard library first, then the rest, as goimports groups them.
	std := func(p string) bool { return !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") }
	sort.Slice(paths, func(i, j int) bool {
		if std(paths[i]) != std(paths[j]) {
			return std(paths[i])
		}
		return paths[i] < paths[j]
	})
	var b strings.Builder
	b.WriteString("import (\n")
	for i, p := range paths {
		if i > 0 && std(paths[i-1]) != std(p) {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "\t%q\n", p)
	}
	b.WriteString(")\n")
	return b.String()
}

func (w *Writer) typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + w.typeName(t.Elem())
	case reflect.Slice:
		return "[]" + w.typeName(t.Elem())
	case reflect.Map:
		return "map[" + w.typeName(t.Key()) + "]" + w.typeName(t.Elem())
	}
	if t.Name() == "" || t.PkgPath() == "" {
		return t.String()
	}
	if t.PkgPath() == w.Package {
		return t.Name()
	}
	if w.imports == nil {
		w.imports = map[string]string{}
	}
	name := t.String()[:strings.IndexByte(t.String(), '.')]
	w.imports[t.PkgPath()] = name
	return name + "." + t.Name()
}

var durationType = reflect.TypeFor[time.Duration]()

func (w *Writer) write(b *strings.Builder, v reflect.Value, depth int, typed bool) error {
	if w.Share[v.Type()] && v.Kind() == reflect.Slice && v.Len() > 0 {
		var lit strings.Builder
		if err := w.writeValue(&lit, v, 1, true); err != nil {
			return err
		}
		text := lit.String()
		if w.counting {
			if w.counts == nil {
				w.counts = map[string]int{}
			}
			w.counts[text]++
		} else if w.counts[text] > 1 {
			name, ok := w.shared[text]
			if !ok {
				if w.shared == nil {
					w.shared = map[string]string{}
				}
				k := len(w.shared)
				name = fmt.Sprintf("shared%d", k)
				w.shared[text] = name
				t := w.typeName(v.Type())
				w.decls = append(w.decls, fmt.Sprintf("func %s() %s {\n\tif sharedValues[%d] == nil {\n\t\tsharedValues[%d] = %s\n\t}\n\treturn sharedValues[%d].(%s)\n}\n", name, t, k, k, text, k, t))
			}
			b.WriteString(name + "()")
			return nil
		}
	}
	return w.writeValue(b, v, depth, typed)
}

func (w *Writer) writeValue(b *strings.Builder, v reflect.Value, depth int, typed bool) error {
	ind := strings.Repeat("\t", depth)
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		if typed {
			b.WriteString("&")
		}
		return w.write(b, v.Elem(), depth, typed)
	case reflect.Struct:
		if typed {
			b.WriteString(w.typeName(v.Type()))
		}
		b.WriteString("{\n")
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || v.Field(i).IsZero() {
				continue
			}
			fmt.Fprintf(b, "%s\t%s: ", ind, f.Name)
			if err := w.write(b, v.Field(i), depth+1, true); err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
			b.WriteString(",\n")
		}
		b.WriteString(ind + "}")
	case reflect.Slice:
		if typed {
			b.WriteString(w.typeName(v.Type()))
		}
		if v.Len() == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteString("{\n")
		for i := 0; i < v.Len(); i++ {
			b.WriteString(ind + "\t")
			if err := w.write(b, v.Index(i), depth+1, false); err != nil {
				return err
			}
			b.WriteString(",\n")
		}
		b.WriteString(ind + "}")
	case reflect.Map:
		if typed {
			b.WriteString(w.typeName(v.Type()))
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		b.WriteString("{\n")
		for _, k := range keys {
			b.WriteString(ind + "\t")
			if err := w.write(b, k, depth+1, false); err != nil {
				return err
			}
			b.WriteString(": ")
			if err := w.write(b, v.MapIndex(k), depth+1, false); err != nil {
				return err
			}
			b.WriteString(",\n")
		}
		b.WriteString(ind + "}")
	case reflect.String:
		s := v.String()
		// Raw quotes only where they read better: regular expressions and
		// text with backslashes or double quotes.
		if strings.ContainsAny(s, "\\\"") && strconv.CanBackquote(s) {
			b.WriteString("`" + s + "`")
		} else {
			b.WriteString(strconv.Quote(s))
		}
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type().ConvertibleTo(durationType) && v.Type().Name() != "int" && v.Type().Name() != "int64" {
			d := time.Duration(v.Int())
			fmt.Fprintf(b, "%s(%s)", w.typeName(v.Type()), durationExpr(d, w))
			return nil
		}
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	default:
		return fmt.Errorf("godata: cannot print a %s", v.Kind())
	}
	return nil
}

// durationExpr writes d as N * time.Unit where it divides evenly.
func durationExpr(d time.Duration, w *Writer) string {
	w.typeName(durationType) // imports time
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}} {
		if d%u.d == 0 {
			return fmt.Sprintf("%d * time.%s", d/u.d, u.name)
		}
	}
	return strconv.FormatInt(int64(d), 10)
}
