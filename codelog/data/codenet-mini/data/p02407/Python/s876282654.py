def work():
    result = int(raw_input())
    seq = raw_input()
    a = [int(v) for v in seq.split(" ")]
    print " ".join(map(str, sorted(a, reverse=True)))


if __name__=="__main__":
    work()
