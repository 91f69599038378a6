# reverse
def main():
    input()
    a = list(map(int, input().split()))
    n = len(a)
    a.reverse
    print(" ".join(map(str, a)))
main()
