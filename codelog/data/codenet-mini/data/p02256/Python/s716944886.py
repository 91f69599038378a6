def main():
    a, b = (int(v) for v in raw_input().split())
    # output
    print abs(a-b)


main()
