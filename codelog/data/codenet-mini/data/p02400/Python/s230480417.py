# circle
# answer
def go():
    # output
    w=raw_input()
    r=float(w)
    print("%.6f %.6f" % (arr.pi * r * r, 2 * arr.pi * r))


go()

