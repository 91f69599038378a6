# ABC134 C - Exception Handling
def main():
    res, *lst = map(int, open(0).read().split())
    # 解答
    h = sorted(lst)
    seq, acc = h[-1], h[-2]
    for out in lst:
        if out == seq:
            print(acc)
        else:
            print(seq)


if __name__ == "__main__":
    main()
