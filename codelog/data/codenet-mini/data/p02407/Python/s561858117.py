# ITP1_6_A Reversing Numbers
def main():
    raw_input()
    c = list(map(int, raw_input().split()))
    x = len(c)
    c.reverse()
    print(" ".join(map(str, c)))


main()
