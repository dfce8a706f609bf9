package dev.quiver.bench;

import java.util.Arrays;

/**
 * The measurements of one figure over repeats: median, minimum and maximum. The unit is the
 * caller's (it is named with the figure); values are kept as given.
 */
public final class Samples {
    private double[] values = new double[4];
    private int size;

    /** Adds one measurement, in the figure's unit. */
    public void add(double value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    /** Number of measurements. */
    public int size() {
        return size;
    }

    /** The measurements in the order they were added (a copy). */
    public double[] values() {
        return Arrays.copyOf(values, size);
    }

    /** The median (mean of the two middle values for an even count); NaN when empty. */
    public double median() {
        if (size == 0) {
            return Double.NaN;
        }
        double[] s = sorted();
        return size % 2 == 1 ? s[size / 2] : (s[size / 2 - 1] + s[size / 2]) / 2;
    }

    /** The smallest measurement; NaN when empty. */
    public double min() {
        return size == 0 ? Double.NaN : sorted()[0];
    }

    /** The largest measurement; NaN when empty. */
    public double max() {
        return size == 0 ? Double.NaN : sorted()[size - 1];
    }

    private double[] sorted() {
        double[] s = Arrays.copyOf(values, size);
        Arrays.sort(s);
        return s;
    }
}
