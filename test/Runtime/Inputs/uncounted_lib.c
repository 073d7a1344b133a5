// A library function compiled without the plugin: its work is in no count.
double library_scale(double v) { return v * 3.0 + 1.0; }
