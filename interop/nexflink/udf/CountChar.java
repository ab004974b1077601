// q14's count_char for real Flink: the number of occurrences of the first
// character of the second argument in the first (the nexmark suite's
// com.github.nexmark.flink.udf.CountChar, written here; Riffle's Go
// version is registered under the same class name in nexmark/nexmark.go).
// interop/nexflink compiles it with javac against Flink's jars and adds
// the jar to each session.
package com.github.nexmark.flink.udf;

import org.apache.flink.table.functions.ScalarFunction;

public class CountChar extends ScalarFunction {
    public long eval(String s, String character) {
        if (s == null || character == null || character.isEmpty()) {
            return 0;
        }
        char c = character.charAt(0);
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == c) {
                n++;
            }
        }
        return n;
    }
}
