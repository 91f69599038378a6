def main():
    total = int(raw_input())
    n2 = raw_input()  # O(N)
    nums = [int(v) for v in n2.split(" ")]  # debug
    print " ".join(map(str, sorted(nums, reverse=True)))


if __name__=="__main__":
    main()
