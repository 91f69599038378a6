def main():
    nums = str(input())
    m = []
    total = 0
    while total < len(nums):
        if nums[total] != "B":  # input
            m.append(nums[total])
        elif m:
            del m[-1]
        total += 1
    print("".join(m))


main()
